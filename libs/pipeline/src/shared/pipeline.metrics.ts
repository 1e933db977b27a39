import { Counter, type Registry } from 'prom-client';

export type CommandResult = 'accepted' | 'duplicate' | 'conflict' | 'rejected' | 'dead_lettered';

/** Intake metrics. Labels are bounded enums: command type, result, reason; never ids or amounts. */
export class PipelineMetrics {
  readonly commands: Counter<'type' | 'result'>;
  readonly deadLettered: Counter<'reason'>;
  readonly staleResults: Counter<'source'>;
  readonly leasesLost: Counter;

  constructor(registry: Registry) {
    this.commands = new Counter({
      name: 'payouts_commands_consumed_total',
      help: 'Commands consumed from payouts.commands, by command type and result',
      labelNames: ['type', 'result'],
      registers: [registry],
    });
    this.deadLettered = new Counter({
      name: 'payouts_commands_dead_lettered_total',
      help: 'Commands and queries sent to payouts.commands.dlq, by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.staleResults = new Counter({
      name: 'payouts_stale_results_total',
      help: 'Results dropped because they would move a row backwards or it had moved on',
      labelNames: ['source'],
      registers: [registry],
    });
    this.leasesLost = new Counter({
      name: 'payouts_leases_lost_total',
      help: 'Leases of in-flight provider calls that could not be renewed (the row moved on or another worker took it)',
      registers: [registry],
    });
  }
}
