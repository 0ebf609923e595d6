import { monitorEventLoopDelay, performance, PerformanceObserver, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';
import { MonitorLimits, type RuntimeInfo, type RuntimeSample } from '@isps/contract';

const NS_PER_MS = 1e6;

/**
 * Samples the process every few seconds into a ring buffer of the last hour: memory, event-loop delay and
 * utilisation, garbage-collection pauses. Started with the app and stopped when it closes.
 */
export class RuntimeSampler {
  private readonly samples: RuntimeSample[] = [];
  private readonly delay: IntervalHistogram;
  private readonly gcObserver: PerformanceObserver | null;
  private elu: EventLoopUtilization;
  private gcCount = 0;
  private gcPauseMs = 0;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly now: () => number,
    private readonly everyMs: number = MonitorLimits.sampleMs,
    private readonly kept: number = MonitorLimits.samplesKept,
  ) {
    this.delay = monitorEventLoopDelay({ resolution: 20 });
    this.elu = performance.eventLoopUtilization();
    let observer: PerformanceObserver | null = null;
    try {
      observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          this.gcCount += 1;
          this.gcPauseMs += entry.duration;
        }
      });
      observer.observe({ entryTypes: ['gc'] });
    } catch {
      observer = null;
    }
    this.gcObserver = observer;
  }

  start(): void {
    this.delay.enable();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.delay.disable();
    this.gcObserver?.disconnect();
  }

  /** The figures since the last sample; kept in the buffer when `keep`. */
  sample(keep = true): RuntimeSample {
    const memory = process.memoryUsage();
    const elu = performance.eventLoopUtilization(this.elu);
    const has = this.delay.count > 0;
    const sample: RuntimeSample = {
      time: this.now(),
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      rss: memory.rss,
      loopDelayMean: has ? round(this.delay.mean / NS_PER_MS) : 0,
      loopDelayP99: has ? round(this.delay.percentile(99) / NS_PER_MS) : 0,
      loopDelayMax: has ? round(this.delay.max / NS_PER_MS) : 0,
      loopUtilization: round(elu.utilization, 4),
      gcCount: this.gcCount,
      gcPauseMs: round(this.gcPauseMs),
    };
    if (keep) {
      this.elu = performance.eventLoopUtilization();
      this.delay.reset();
      this.gcCount = 0;
      this.gcPauseMs = 0;
      this.samples.push(sample);
      if (this.samples.length > this.kept) this.samples.splice(0, this.samples.length - this.kept);
    }
    return sample;
  }

  info(): RuntimeInfo {
    const handles = (process as unknown as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo?.() ?? [];
    return {
      nodeVersion: process.version,
      uptimeSeconds: Math.round(process.uptime()),
      activeHandles: handles.length,
      current: this.sample(false),
      samples: this.samples.slice(),
    };
  }
}

function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
