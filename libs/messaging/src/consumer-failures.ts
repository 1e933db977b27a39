/** A partition whose latest batch failed, and for how long it has kept failing. */
export interface FailingPartition {
  readonly topic: string;
  readonly partition: number;
  /** Failed deliveries in a row, since the last success. */
  readonly failures: number;
  readonly since: Date;
  /** The latest error's name and SQLSTATE / Kafka error type, never its message (it may quote data). */
  readonly lastError: string;
}

/** A group's consumer that crashed and has not joined its group since: nothing of its topics is read. */
export interface StoppedConsumer {
  readonly groupId: string;
  readonly since: Date;
  /** Crashes since it last joined (kafkajs' own restarts and the transport's recreations). */
  readonly crashes: number;
  /** The latest error's name and Kafka error type, never its message. */
  readonly lastError: string;
}

/**
 * Which partitions' batches keep failing, and which groups' consumers are not running. The batch transport reports each batch's end; readiness
 * and the metrics read it. A batch that fails is delivered again, so a partition that stays here
 * is stalled: nothing behind its failing batch is consumed.
 */
export class ConsumerFailures {
  private readonly failing = new Map<string, FailingPartition>();
  private readonly totals = new Map<string, number>();
  private readonly stopped = new Map<string, StoppedConsumer>();
  private readonly recreated = new Map<string, number>();

  constructor(
    /** Logical topic to report a physical one under (e.g. without the prefix). */
    private readonly label: (topic: string) => string = (t) => t,
    private readonly now: () => number = Date.now,
  ) {}

  failed(topic: string, partition: number, error: unknown): void {
    const key = `${topic}\u0000${partition}`;
    const before = this.failing.get(key);
    this.failing.set(key, {
      topic: this.label(topic),
      partition,
      failures: (before?.failures ?? 0) + 1,
      since: before?.since ?? new Date(this.now()),
      lastError: describe(error),
    });
    this.totals.set(this.label(topic), (this.totals.get(this.label(topic)) ?? 0) + 1);
  }

  succeeded(topic: string, partition: number): void {
    this.failing.delete(`${topic}\u0000${partition}`);
  }

  /**
   * After a rebalance of the group consuming `topics` (all topics when not given): partitions of
   * those topics no longer assigned to this member are someone else's concern. Another group's
   * topics (a process consuming commands and queries has a group for each) are left alone.
   */
  assigned(assignment: Readonly<Record<string, readonly number[]>>, topics?: readonly string[]): void {
    for (const [key, f] of this.failing) {
      const [topic = ''] = key.split('\u0000');
      if (topics && !topics.includes(topic)) continue;
      if (!assignment[topic]?.includes(f.partition)) this.failing.delete(key);
    }
  }

  /** Partitions that failed at least `minFailures` times in a row. */
  stalled(minFailures = 1): FailingPartition[] {
    return [...this.failing.values()].filter((f) => f.failures >= minFailures);
  }

  /** Failed batch deliveries since the start, per logical topic. */
  totalFailures(): ReadonlyMap<string, number> {
    return this.totals;
  }

  /** The group's consumer crashed (kafkajs may start it again, or the transport recreates it). */
  consumerCrashed(groupId: string, error: unknown): void {
    const before = this.stopped.get(groupId);
    this.stopped.set(groupId, {
      groupId,
      since: before?.since ?? new Date(this.now()),
      crashes: (before?.crashes ?? 0) + 1,
      lastError: describe(error),
    });
  }

  /** The group's consumer joined its group: it is reading again. */
  consumerJoined(groupId: string): void {
    this.stopped.delete(groupId);
  }

  /** The transport replaced a consumer kafkajs would not restart with a fresh one. */
  consumerRecreated(groupId: string): void {
    this.recreated.set(groupId, (this.recreated.get(groupId) ?? 0) + 1);
  }

  /** Groups whose consumer has not been running for at least `minMs`. */
  stoppedConsumers(minMs = 0): StoppedConsumer[] {
    const now = this.now();
    return [...this.stopped.values()].filter((s) => now - s.since.getTime() >= minMs);
  }

  /** Consumers recreated since the start, per group. */
  recreations(): ReadonlyMap<string, number> {
    return this.recreated;
  }
}

function describe(e: unknown): string {
  // Nest hands a handler's error over as a plain { status, message } object; the log has the cause.
  if (!(e instanceof Error)) return 'handler error (see the error log)';
  const { code, type } = e as { code?: unknown; type?: unknown };
  const tag = typeof code === 'string' ? code : typeof type === 'string' ? type : undefined;
  return tag ? `${e.name} ${tag}` : e.name;
}
