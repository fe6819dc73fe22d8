type HealthCheck = () => Promise<void>;
type Closer = () => Promise<void>;

const healthChecks: HealthCheck[] = [];
const closers: Closer[] = [];
let startedOnce = false;
let markStarted: () => void = () => {};
const started = new Promise<void>((resolve) => (markStarted = resolve));

/** The app has started once: its database opened and the shipped data loaded (`GET /healthz` answers 200 from now on). */
export function noteStarted(): void {
  startedOnce = true;
  markStarted();
}
export const hasStarted = (): boolean => startedOnce;
/** Resolves when the app has started once (never, when it does not). */
export const whenStarted = (): Promise<void> => started;

/** Capabilities that hold resources (the database, analytics queues) register how to check and release them. */
export function onHealthCheck(check: HealthCheck) {
  healthChecks.push(check);
}
export function onShutdown(close: Closer) {
  closers.push(close);
}

/** Used by `GET /readyz` (and before writes): resolves when every dependency answers. */
export async function checkHealth(): Promise<void> {
  await Promise.all(healthChecks.map((check) => check()));
}

/** Called once by the server after it stopped accepting requests and in-flight ones finished. */
export async function shutdown(): Promise<void> {
  await Promise.allSettled(closers.reverse().map((close) => close()));
}

let lastConnectionLost = Number.NEGATIVE_INFINITY;

/** A dependency dropped a connection (PostgreSQL restarting): requests failing around now were not the visitor's fault. */
export function noteConnectionLost(): void {
  lastConnectionLost = Date.now();
}

/** True when a dependency dropped a connection within the last `ms` milliseconds. */
export function connectionLostWithin(ms: number): boolean {
  return Date.now() - lastConnectionLost <= ms;
}
