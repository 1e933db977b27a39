/**
 * The V8 flags the service runs with (Dockerfile CMD, `npm run demo`, `npm run bench`; a test
 * keeps the three in step). Without them, Node 24 on a machine with much memory lets the young
 * generation grow to 2 x 64 MB and the old generation collect late: 390-440 MB resident during a
 * burst of 10,000 payouts, with about 50 MB of it live. With them, 200-225 MB
 * (docs/BENCHMARKS.md). The old-space cap leaves several times the live set as headroom.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--max-old-space-size=384'];
