import { monitorEventLoopDelay } from "node:perf_hooks";
import { log } from "../server/log.server";

/**
 * No request may hold the event loop. Once a second, when the longest delay of a turn seen or the CPU time held between
 * two ticks passed EVENT_LOOP_WARN_MS, it is logged as a warning with the main thread's CPU time in that second
 * (`cpuMs`) and the most CPU time it used between two turns (`heldMs`, timed by a tick every EVENT_LOOP_TICK_MS). A delay with little CPU behind it is the
 * machine being busy (the process was not scheduled); one with as much CPU held between two turns is this process
 * working without a break. Ops see both; the tests of bounded work assert that the second kind never happens.
 *
 * Timing starts at the first tick, not at the call: the rest of the turn that starts the watch (server.ts loading the
 * app, creating the edge and calling `listen`) ends before the server can accept a connection, so it holds no request.
 */
const EVENT_LOOP_WARN_MS = 100;
const EVENT_LOOP_TICK_MS = 10;

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Starts the watch; the function it returns stops it (the server's runs for the life of the process). */
export function watchEventLoop(): () => void {
  const loopDelay = monitorEventLoopDelay({ resolution: EVENT_LOOP_TICK_MS });
  loopDelay.enable();
  let secondStartCpu = threadCpuMs();
  let tickCpu = secondStartCpu;
  let heldMs = 0;
  let ticked = false;
  const tick = setInterval(() => {
    const cpu = threadCpuMs();
    if (ticked) heldMs = Math.max(heldMs, cpu - tickCpu);
    else {
      ticked = true;
      secondStartCpu = cpu;
      loopDelay.reset();
    }
    tickCpu = cpu;
  }, EVENT_LOOP_TICK_MS).unref();
  const report = setInterval(() => {
    const ms = loopDelay.max / 1e6;
    const cpu = threadCpuMs();
    const held = Math.max(heldMs, cpu - tickCpu);
    // Held CPU counts on its own: a turn longer than this second can end before the delay histogram has its sample.
    if (ms > EVENT_LOOP_WARN_MS || held > EVENT_LOOP_WARN_MS)
      log.warn("event loop blocked", {
        ms: Math.round(ms),
        cpuMs: Math.round(cpu - secondStartCpu),
        heldMs: Math.round(held),
      });
    secondStartCpu = cpu;
    heldMs = 0;
    loopDelay.reset();
  }, 1_000).unref();
  return () => {
    clearInterval(tick);
    clearInterval(report);
    loopDelay.disable();
  };
}
