// Preloaded into a server by profile.mjs (`node --import`): samples the event loop's delay with
// perf_hooks and prints the histogram on stderr when the process is told to stop, so a tail can be told
// apart from a blocked loop (long synchronous work or a GC pause) and from a starved process.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.prependOnceListener('SIGTERM', () => {
  histogram.disable();
  const ms = (ns) => (ns / 1e6).toFixed(2);
  process.stderr.write(
    `loop-delay: p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, ` +
      `max ${ms(histogram.max)} ms over ${histogram.count} samples\n`,
  );
});
