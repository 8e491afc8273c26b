/**
 * hostNow is the host's clock in milliseconds (performance.now in browsers, workers and Node, the
 * clock callers take deadlines from; Date.now where there is none), reached through globalThis
 * because the core compiles against ES2022 alone, without DOM or Node types. The sliced jobs
 * (FanoutGridJob, FanoutShareJob, FanoutFieldJob) compare it with their step deadline.
 */
const hostPerformance = (globalThis as { performance?: { now(): number } }).performance;
export const hostNow: () => number = hostPerformance ? () => hostPerformance.now() : Date.now;
