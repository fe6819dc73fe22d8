// Relative imports carry `.ts` (see open.server.ts).
import type { Client, ClientConfig, Notification } from "pg";
import { LEARNER_CHANNEL, type LearnerChanges } from "./learner-changes.ts";

/** Waits before connecting again after the listening connection failed: doubled each time, up to the last. */
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

/**
 * One connection of this instance that listens for the learner changes every write announces (drizzle/0021, 0026) and
 * hands them to `changes`. While it is away (not yet
 * connected, the server restarted, the connection cut) `changes` is told the announcements are lost, so nothing kept
 * from before is trusted and nothing is kept, and it connects again with a growing wait until it is stopped.
 */
export function listenForLearnerChanges(
  createClient: (config: ClientConfig) => Client,
  config: ClientConfig,
  changes: LearnerChanges,
  onError: (error: Error) => void,
): { stop: () => Promise<void> } {
  let stopped = false;
  let client: Client | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const hear = (message: Notification) => {
    if (message.channel === LEARNER_CHANNEL) changes.announce(message.payload ?? "");
  };

  const connect = async () => {
    timer = undefined;
    if (stopped) return;
    const current = createClient(config);
    client = current;
    let gone = false;
    const away = (error?: Error) => {
      if (gone) return;
      gone = true;
      changes.lost();
      if (error && !stopped) onError(error);
      current.removeAllListeners("notification");
      void current.end().catch(() => {});
      if (client === current) client = null;
      if (!stopped) timer = setTimeout(connect, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]);
    };
    current.on("error", away);
    current.on("end", () => away());
    current.on("notification", hear);
    try {
      await current.connect();
      await current.query(`LISTEN ${LEARNER_CHANNEL}`);
      if (gone || stopped) return;
      failures = 0;
      changes.resumed();
    } catch (error) {
      away(error as Error);
    }
  };

  changes.lost();
  void connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      const current = client;
      client = null;
      changes.lost();
      await current?.end().catch(() => {});
    },
  };
}
