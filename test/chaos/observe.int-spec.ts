import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutEvent } from '#contracts';
import { type Hostile, type PlannedCommand } from './generate.js';
import {
  analyseDeadLetters,
  analyseEvents,
  negativesPublished,
  providerAgreement,
  wrongTerminals,
  type ProviderOutcome,
  type TopicMessage,
} from './observe.js';
import { KEPT_MARKER, keptSection } from './report.js';

/** The chaos checks themselves: each must see the violation it exists for. */
const event = (subject: string, version: number, status: string, extra: object = {}): PayoutEvent =>
  ({
    id: `${subject}:${version}`,
    type: `payouts.payout.${status.toLowerCase()}`,
    subject,
    data: { accountId: 'default', id: subject, kind: 'direct_transfer', status, version, ...extra },
  }) as unknown as PayoutEvent;

let offset = 0;
const msg = (e: PayoutEvent, partition = 0, headers: Record<string, string> = {}): TopicMessage => ({
  partition,
  offset: String((offset += 1)),
  key: e.subject,
  value: Buffer.from(JSON.stringify(e)),
  headers,
});

const command = (identity: string, secrets: string[] = [], account = 'default'): PlannedCommand => ({
  account,
  identity,
  kind: 'direct_transfer',
  label: 'direct/test',
  value: { data: { transferId: identity, amount: '10.00' } },
  secrets,
  entries: [],
});

describe('chaos checks', () => {
  it('versions: a redelivery of the latest is fine; a gap, a reordering and a partition change are not', () => {
    const a = analyseEvents(
      [
        msg(event('a', 1, 'RECEIVED')),
        msg(event('a', 2, 'SUBMITTING')),
        msg(event('a', 2, 'SUBMITTING')),
        msg(event('a', 3, 'SUCCESS')),
        msg(event('b', 1, 'RECEIVED')),
        msg(event('b', 3, 'SUCCESS')),
        msg(event('c', 1, 'RECEIVED')),
        msg(event('c', 2, 'SUBMITTING')),
        msg(event('c', 1, 'RECEIVED')),
        msg(event('d', 1, 'RECEIVED')),
        msg(event('d', 2, 'FAILED'), 1),
      ],
      new Map(),
    );
    assert.equal(a.redelivered, 1);
    assert.deepEqual(a.orderViolations, [
      'default|b: gap, v3 (SUCCESS) after v1',
      'default|c: reordered, v1 (RECEIVED) after v2',
      'default|d: v2 on partition 1, earlier ones on 0',
    ]);
    assert.equal(a.last.get('default|a')?.data.status, 'SUCCESS');
  });

  it('versions with OUTBOX_TRANSPORT=wal: a repeated run of seen versions is a redelivery; a new version out of order is not', () => {
    const events = [
      msg(event('a', 1, 'RECEIVED')),
      msg(event('a', 2, 'SUBMITTING')),
      msg(event('a', 1, 'RECEIVED')),
      msg(event('a', 2, 'SUBMITTING')),
      msg(event('a', 3, 'SUCCESS')),
      msg(event('b', 2, 'SUBMITTING')),
    ];
    const wal = analyseEvents(events, new Map(), 'any');
    assert.equal(wal.redelivered, 2);
    assert.deepEqual(wal.orderViolations, ['default|b: gap, v2 (SUBMITTING) after v0']);
    assert.deepEqual(analyseEvents(events, new Map()).orderViolations, [
      'default|a: reordered, v1 (RECEIVED) after v2',
      'default|b: gap, v2 (SUBMITTING) after v0',
    ]);
  });

  it('secrets of a command in its events are found', () => {
    const a = analyseEvents(
      [msg(event('s', 1, 'RECEIVED', { beneficiary: { bankAccount: '026291800001191' } }))],
      new Map([['default|s', command('s', ['026291800001191'])]]),
    );
    assert.equal(a.secretViolations.length, 1);
  });

  it('dead letters: a missing one, one without a reason and a leaked secret are found', () => {
    const hostile: Hostile[] = [
      { n: 1, category: 'random_bytes', hmac: 'aa', secrets: [] },
      { n: 2, category: 'secrets_inside', hmac: 'bb', secrets: [{ what: 'card token', value: '4111' }] },
      { n: 3, category: 'empty', hmac: 'cc', secrets: [] },
      { n: 4, category: 'zero_amount', hmac: 'dd', secrets: [], identity: 'z' },
    ];
    const dlq: TopicMessage[] = [
      {
        partition: 0,
        offset: '1',
        key: null,
        value: Buffer.from('x 4111'),
        headers: { 'dlq-original-hmac-sha256': 'bb', 'dlq-reason': 'schema_violation' },
      },
      { partition: 0, offset: '2', key: null, value: null, headers: { 'dlq-original-hmac-sha256': 'cc' } },
    ];
    const d = analyseDeadLetters(dlq, hostile, new Map([['default|z', event('z', 2, 'REJECTED')]]));
    assert.deepEqual(d.missing, ['hostile #1 (random_bytes) not dead-lettered']);
    assert.equal(d.withoutReason.length, 1);
    assert.deepEqual(d.secretLeaks, [
      'hostile #2 (secrets_inside, reason schema_violation): card token in the dead letter',
    ]);
    assert.equal(d.settledByEvent, 1);
  });

  it("final states are compared with the provider's", () => {
    const cmds = [command('p1'), command('p2'), command('p3'), command('p4')];
    const last = new Map([
      ['default|p1', event('p1', 3, 'SUCCESS')],
      ['default|p2', event('p2', 3, 'FAILED')],
      ['default|p3', event('p3', 3, 'SUCCESS')],
      ['default|p4', event('p4', 3, 'REQUIRES_ATTENTION')],
    ]);
    const r = providerAgreement(
      cmds,
      { last, lastItem: new Map() },
      {
        transfers: new Map([
          ['default|p1', { endpoint: 'directTransfer', status: 'SUCCESS' }],
          ['default|p2', { endpoint: 'directTransfer', status: 'SUCCESS' }],
        ]),
        accepted: new Map(),
      },
    );
    assert.deepEqual(r.violations, [
      'default/p2 (direct/test): the service says FAILED, the provider says SUCCESS',
      'default/p3 (direct/test): the service says SUCCESS, the provider says none',
    ]);
    assert.equal(r.attention, 1);
    assert.deepEqual([...r.attentionByTruth], [['direct_transfer (no reason) (provider: not paid)', 1]]);
  });

  it('a negative state published at any version for a paid, unreturned id is found; returned or unpaid ids are not', () => {
    const outcome = (transferId: string, o: Partial<ProviderOutcome>): ProviderOutcome => ({
      account: 'sandbox_client_id',
      transferId,
      endpoint: 'directTransfer',
      initiations: 1,
      accepted: 1,
      status: 'SUCCESS',
      reached: ['SUCCESS'],
      paid: 1,
      returned: false,
      failed: false,
      ...o,
    });
    const contradicted = { ...event('p1', 4, 'FAILED'), type: 'payouts.payout.contradicted' } as PayoutEvent;
    const { negatives, contradicted: seen } = negativesPublished([
      // p1: FAILED at v3, then (a later fix) SUCCESS at v5: the FAILED was still published.
      msg(event('p1', 3, 'FAILED', { reason: 'Insufficient balance in account' })),
      msg(event('p1', 3, 'FAILED', { reason: 'Insufficient balance in account' })),
      msg(contradicted),
      msg(event('p1', 5, 'SUCCESS')),
      msg(event('p2', 3, 'REVERSED')),
      msg(event('p3', 3, 'FAILED')),
      msg(event('p4', 3, 'REJECTED')),
      msg(event('b1', 2, 'FAILED', { kind: 'batch_transfer' })),
    ]);
    assert.equal(seen.length, 1);
    assert.equal(negatives.get('default|p1')?.length, 1, 'a redelivery counts once');
    assert.equal(negatives.has('default|b1'), false, 'a batch is not a payout');
    const outcomes = new Map([
      ['default|p1', outcome('p1', { accepted: 1, initiations: 2 })],
      [
        'default|p2',
        outcome('p2', { status: 'REVERSED', reached: ['SUCCESS', 'REVERSED'], paid: 0, returned: true }),
      ],
      ['default|p3', outcome('p3', { status: 'NOT_APPLIED', reached: [], paid: 0, accepted: 0 })],
      ['default|p4', outcome('p4', { endpoint: 'internalTransfer', paid: 2, accepted: 2, initiations: 2 })],
    ]);
    const found = wrongTerminals(
      negatives,
      outcomes,
      () => 'direct/test',
      new Map([['default|p1', 'SUBMITTING>FAILED by executor']]),
    );
    assert.deepEqual(found, [
      'default/p1 (direct/test): published FAILED v3 (Insufficient balance in account); the provider paid it 1x (1 of 2 initiations accepted, now SUCCESS, reached SUCCESS); path: SUBMITTING>FAILED by executor',
      'default/p4 (direct/test): published REJECTED v3; the provider paid it 2x (2 of 2 initiations accepted, now SUCCESS, reached SUCCESS)',
    ]);
  });
});

describe('chaos checks with two accounts', () => {
  const on = (account: string, e: PayoutEvent): PayoutEvent => ({
    ...e,
    data: { ...e.data, accountId: account },
  });

  it('the same id on two accounts is two payouts: versions, final states and secrets per (account, id)', () => {
    const a = analyseEvents(
      [
        msg(event('x', 1, 'RECEIVED')),
        msg(on('v2', event('x', 1, 'RECEIVED'))),
        msg(event('x', 2, 'SUCCESS')),
        msg(on('v2', event('x', 2, 'FAILED', { leak: '777000111' }))),
      ],
      new Map([
        ['default|x', command('x')],
        ['v2|x', command('x', ['777000111'], 'v2')],
      ]),
    );
    assert.deepEqual(a.orderViolations, [], 'v1 of the second account is not a reordering');
    assert.equal(a.last.get('default|x')?.data.status, 'SUCCESS');
    assert.equal(a.last.get('v2|x')?.data.status, 'FAILED');
    assert.equal(a.secretViolations.length, 1);
    const r = providerAgreement([command('x'), command('x', [], 'v2')], a, {
      // The provider paid the primary's x and never got the v2 account's.
      transfers: new Map([['default|x', { endpoint: 'directTransfer', status: 'SUCCESS' }]]),
      accepted: new Map(),
    });
    assert.deepEqual(r.violations, []);
    const wrong = providerAgreement(
      [command('x', [], 'v2')],
      { last: new Map([['v2|x', event('x', 2, 'SUCCESS')]]), lastItem: new Map() },
      {
        transfers: new Map([['default|x', { endpoint: 'directTransfer', status: 'SUCCESS' }]]),
        accepted: new Map(),
      },
    );
    assert.deepEqual(
      wrong.violations,
      ['v2/x (direct/test): the service says SUCCESS, the provider says none'],
      "the primary's payment is not the v2 account's",
    );
  });

  it("a FAILED on one account is judged against that account's provider record only", () => {
    const { negatives } = negativesPublished([msg(on('v2', event('y', 3, 'FAILED')))]);
    assert.deepEqual([...negatives.keys()], ['v2|y']);
    const paid: ProviderOutcome = {
      account: 'sandbox_client_id',
      transferId: 'y',
      endpoint: 'directTransfer',
      initiations: 1,
      accepted: 1,
      status: 'SUCCESS',
      reached: ['SUCCESS'],
      paid: 1,
      returned: false,
      failed: false,
    };
    assert.deepEqual(
      wrongTerminals(negatives, new Map([['default|y', paid]]), () => 'direct/test'),
      [],
    );
    assert.equal(wrongTerminals(negatives, new Map([['v2|y', paid]]), () => 'direct/test').length, 1);
  });
});

describe('the report file', () => {
  it('keeps the hand-written part (from the marker on) and nothing above it', () => {
    const old = `# old figures\n| a | b |\n\n${KEPT_MARKER}\n\n## Audit\n| path | signal |\n`;
    assert.equal(keptSection(old), `\n${KEPT_MARKER}\n\n## Audit\n| path | signal |\n`);
    assert.equal(keptSection('# figures only\n'), '');
  });
});
