/**
 * Where a payout's latency goes, stage by stage, from the ledger's own history (`state_history`,
 * written in the transaction of each change; its `at` is that transaction's start).
 *
 *   sent      the bench handed the command to its producer
 *   accepted  intake's transaction (the payout's first history row)
 *   claimed   the executor's claim (SUBMITTING)
 *   outcome   the transaction that recorded the terminal status (SUCCESS / FAILED)
 *   received  the bench's consumer read the terminal event from the topic
 *
 * The bench's clock is `performance.now()`; history times are wall clock from Postgres on the same
 * machine, mapped with `performance.timeOrigin`.
 */
import { benchPool, percentile } from './support.js';

interface Times {
  readonly sent: number;
  readonly received: number;
}

const STAGES = [
  'sent -> accepted',
  'accepted -> claimed',
  'claimed -> outcome',
  'outcome -> received',
] as const;

export async function stageBreakdown(dbUrl: string, times: ReadonlyMap<string, Times>): Promise<string> {
  const pool = benchPool(dbUrl, 1);
  try {
    const { rows } = await pool.query<{ transfer_id: string; to_status: string; ms: string }>(
      `SELECT transfer_id, to_status, (extract(epoch FROM at) * 1000)::text AS ms
         FROM state_history WHERE subject = 'payout' ORDER BY id`,
    );
    const at = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const m = at.get(r.transfer_id) ?? new Map<string, number>();
      if (!m.has(r.to_status)) m.set(r.to_status, Number(r.ms) - performance.timeOrigin);
      at.set(r.transfer_id, m);
    }
    const per: Array<{ sent: number; total: number; stages: number[] }> = [];
    for (const [id, t] of times) {
      const h = at.get(id);
      const first = h?.values().next().value;
      const claimed = h?.get('SUBMITTING');
      const outcome = h?.get('SUCCESS') ?? h?.get('FAILED');
      if (first === undefined || claimed === undefined || outcome === undefined) continue;
      per.push({
        sent: t.sent,
        total: t.received - t.sent,
        stages: [first - t.sent, claimed - first, outcome - claimed, t.received - outcome],
      });
    }
    if (per.length === 0) return '    stages: no payout with a complete history';
    per.sort((a, b) => a.total - b.total);
    const tail = per.slice(Math.floor(per.length * 0.99));
    const lines = [
      `    where the time went (${per.length} payouts; ms; history times are transaction starts):`,
      `      ${'stage'.padEnd(22)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}  mean in the slowest 1 %`,
    ];
    const fmt = (v: number): string => v.toFixed(0).padStart(7);
    STAGES.forEach((name, i) => {
      const sorted = per.map((p) => p.stages[i] ?? 0).sort((a, b) => a - b);
      const tailMean = tail.reduce((a, p) => a + (p.stages[i] ?? 0), 0) / tail.length;
      lines.push(
        `      ${name.padEnd(22)} ${fmt(percentile(sorted, 50))} ${fmt(percentile(sorted, 95))} ${fmt(percentile(sorted, 99))} ${fmt(sorted[sorted.length - 1] ?? NaN)}  ${fmt(tailMean)}`,
      );
    });
    const totals = per.map((p) => p.total);
    const tailTotal = tail.reduce((a, p) => a + p.total, 0) / tail.length;
    lines.push(
      `      ${'total'.padEnd(22)} ${fmt(percentile(totals, 50))} ${fmt(percentile(totals, 95))} ${fmt(percentile(totals, 99))} ${fmt(totals[totals.length - 1] ?? NaN)}  ${fmt(tailTotal)}`,
    );
    if (process.env.BENCH_STAGES_TIMELINE === '1') {
      // The worst payout sent in each 250 ms, by stage: a stall shows as a run of slow buckets.
      const t0 = Math.min(...per.map((p) => p.sent));
      const buckets = new Map<number, (typeof per)[number]>();
      for (const p of per) {
        const b = Math.floor((p.sent - t0) / 250);
        const cur = buckets.get(b);
        if (!cur || cur.total < p.total) buckets.set(b, p);
      }
      lines.push('      slowest payout sent in each 250 ms: start, total = stages');
      for (const [b, p] of [...buckets].sort((x, y) => x[0] - y[0]))
        lines.push(
          `      ${String(b * 250).padStart(6)} ${fmt(p.total)} = ${p.stages.map((v) => v.toFixed(0)).join(' + ')}`,
        );
    }
    return lines.join('\n');
  } finally {
    await pool.end();
  }
}
