type HealthCheck = () => Promise<void>;
type Closer = () => Promise<void>;

const healthChecks: HealthCheck[] = [];
const closers: Closer[] = [];

/** Capabilities that hold resources (the database, analytics queues) register how to check and release them. */
export function onHealthCheck(check: HealthCheck) {
  healthChecks.push(check);
}
export function onShutdown(close: Closer) {
  closers.push(close);
}

/** Used by `GET /healthz`: resolves when every dependency answers. */
export async function checkHealth(): Promise<void> {
  await Promise.all(healthChecks.map((check) => check()));
}

/** Called once by the server after it stopped accepting requests and in-flight ones finished. */
export async function shutdown(): Promise<void> {
  await Promise.allSettled(closers.reverse().map((close) => close()));
}
