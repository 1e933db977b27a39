import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  COMMAND_EXAMPLES,
  COMMAND_TYPES,
  commandIdentity,
  PAYOUT_KIND_NAMES,
  type Command,
  type PayoutKind,
  PROVIDER_APIS,
  type ProviderApi,
} from '#contracts';
import { SecretsCipher, splitSecrets, type PayoutRow } from '#ledger';
import { type CallOptions, connectorsOf, KIND_TRAITS, type ProviderClient } from '#provider-client/testing';
import { decideAfterSubmit } from './decide-after-submit.js';
import { submitPayout } from './submit-payout.js';
import { PAYOUT_KINDS, REVERSAL_WATCH_KINDS, traitsOf } from './payout-kinds.js';

interface Call {
  method: string;
  request: unknown;
  opts: CallOptions;
}

/** A provider that records every call and answers each with "pending". */
function recordingClient(calls: Call[]): ProviderClient {
  const call = (method: string, request: unknown, opts: CallOptions) => {
    calls.push({ method, request, opts });
    return Promise.resolve({
      outcome: 'pending',
      diagnostics: { endpoint: method, requestId: opts.requestId, sent: true, attempts: 1, durationMs: 1 },
    });
  };
  return { call } as unknown as ProviderClient;
}

const cipher = new SecretsCipher('k1', randomBytes(32));

function exampleOf(kind: PayoutKind): Command {
  const c = COMMAND_EXAMPLES.find((e) => e.type === `payout.${kind}`);
  assert.ok(c, `contracts have an example of payout.${kind}`);
  return c;
}

/** The ledger row intake would store for an example command. */
function rowOf(kind: PayoutKind, over: Partial<PayoutRow> = {}): PayoutRow {
  const c = exampleOf(kind);
  const { plain, secrets } = splitSecrets(c);
  return {
    id: '1',
    accountId: 'acc1',
    transferId: commandIdentity(c),
    kind,
    requestHash: 'h',
    request: plain,
    requestSecrets: secrets
      ? Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, cipher.seal(v)]))
      : null,
    lastError: null,
    amount: String(plain['amount']),
    status: 'SUBMITTING',
    version: 2,
    attempt: 1,
    statusCode: null,
    reason: null,
    referenceId: null,
    svcTransferId: null,
    utr: null,
    requestId: null,
    nextCheckAt: null,
    checkCount: 0,
    createdAt: new Date(),
    updatedAt: new Date(),
    stateChangedAt: new Date(),
    ...over,
  };
}

const timings = { firstCheckMs: 1000, resendMs: 100, fatalConfigMs: 60_000 };

describe('the payout kind table', () => {
  it('has a row for every payout command of the contracts, and no other', () => {
    const commands = Object.keys(COMMAND_TYPES)
      .filter((t) => t !== 'payout.batch_transfer')
      .map((t) => t.slice('payout.'.length));
    assert.deepEqual([...PAYOUT_KIND_NAMES].sort(), commands.sort());
    assert.deepEqual(Object.keys(PAYOUT_KINDS).sort(), commands.sort());
    for (const api of PROVIDER_APIS) assert.deepEqual(Object.keys(KIND_TRAITS[api]).sort(), commands.sort());
  });

  it('holds the rules of each kind, per generation', () => {
    const rules = (api: ProviderApi) =>
      Object.fromEntries(
        PAYOUT_KIND_NAMES.map((k) => {
          const t = traitsOf({ kind: k, providerApi: api });
          return [
            k,
            [t.initiation, t.status ?? null, t.resendIsSafe, t.reversalWatch, PAYOUT_KINDS[k].quota].join(
              ' ',
            ),
          ];
        }),
      );
    // initiation endpoint, status endpoint, re-send safe, reversal watch, quota
    assert.deepEqual(rules('v1'), {
      standard_transfer: 'requestTransfer getTransferStatus true true ',
      direct_transfer: 'directTransfer getTransferStatus true true ',
      card_payout: 'cardpay getTransferStatus true true ',
      validated_upi_payout: 'processValidatedPayout getTransferStatusV2 true false ',
      internal_transfer: 'internalTransfer getTransferStatus false true ',
      self_withdrawal: 'selfWithdrawal  false false daily_withdrawal',
    });
    // Only standard and direct transfers route by generation (ADR 0019).
    assert.deepEqual(rules('v2'), {
      ...rules('v1'),
      standard_transfer: 'transferV2 getTransferStatusV2 true true ',
      direct_transfer: 'transferV2 getTransferStatusV2 true true ',
    });
    assert.deepEqual(REVERSAL_WATCH_KINDS, [
      'standard_transfer',
      'direct_transfer',
      'card_payout',
      'internal_transfer',
    ]);
  });

  for (const api of PROVIDER_APIS) {
    for (const kind of PAYOUT_KIND_NAMES) {
      const t = traitsOf({ kind, providerApi: api });

      it(`${api} ${kind}: sends the stored request, secrets opened, to ${t.initiation} once, with the row's id`, async () => {
        const calls: Call[] = [];
        const row = rowOf(kind, { providerApi: api });
        const sub = await submitPayout(connectorsOf(recordingClient(calls)), cipher, row);
        assert.equal(sub.storedRequestInvalid, undefined);
        assert.deepEqual(
          calls.map((c) => c.method),
          [t.initiation],
        );
        const [call] = calls;
        assert.deepEqual(call?.opts, { accountId: 'acc1', requestId: `${row.transferId}:1` });
        const sent = JSON.stringify(call?.request);
        assert.ok(sent.includes(`"${row.transferId}"`), sent);
        assert.ok(sent.includes(`"${row.amount}"`), `${kind}: the row's decimal amount is sent as text`);
        for (const sealed of Object.values(row.requestSecrets ?? {})) {
          assert.ok(sent.includes(JSON.stringify(cipher.open(sealed))), `${kind}: a secret reaches the call`);
        }
      });

      it(`${api} ${kind}: ${t.status ? `asks ${t.status} about the same id` : 'has no status check'}`, async () => {
        if (!t.status) {
          assert.equal(t.resendIsSafe, false, 'what cannot be checked is never re-sent blind');
          assert.equal(t.reversalWatch, false, 'a reversal needs a status to be seen');
          return;
        }
        const calls: Call[] = [];
        const found = await connectorsOf(recordingClient(calls))[api].checkPayout(kind, 't_1', {
          accountId: 'acc1',
        });
        assert.deepEqual(calls, [
          { method: t.status, request: { transferId: 't_1' }, opts: { accountId: 'acc1' } },
        ]);
        assert.equal(found.found, false, 'an answer without data is not a status');
        // ADR 0008: the v2 UPI (transfer-token) payout has no documented reversal; v2 transfers do.
        if (kind === 'validated_upi_payout') assert.equal(t.reversalWatch, false);
      });

      it(`${api} ${kind}: a stored request that no longer decodes is not sent, and goes to a person`, async () => {
        const calls: Call[] = [];
        const row = rowOf(kind, { providerApi: api });
        const broken = rowOf(kind, { providerApi: api, request: { ...row.request, unexpected: 'x' } });
        const sub = await submitPayout(connectorsOf(recordingClient(calls)), cipher, broken);
        assert.deepEqual(calls, []);
        assert.equal(sub.storedRequestInvalid, true);
        assert.equal(sub.result.diagnostics.endpoint, t.initiation);
        assert.equal(sub.result.diagnostics.sent, false);
        assert.match(sub.result.diagnostics.message ?? '', /\/data has unknown field unexpected/);
        assert.deepEqual(decideAfterSubmit(sub, timings, broken), {
          to: 'REQUIRES_ATTENTION',
          reason: 'stored_request_invalid',
        });
      });
    }
  }

  it("a payout is sent and checked on the generation of its row, not the account's now", async () => {
    const calls: Call[] = [];
    const connectors = connectorsOf(recordingClient(calls));
    await submitPayout(connectors, cipher, rowOf('standard_transfer', { providerApi: 'v1' }));
    await submitPayout(connectors, cipher, rowOf('standard_transfer', { providerApi: 'v2' }));
    await submitPayout(connectors, cipher, rowOf('direct_transfer', { providerApi: 'v2' }));
    assert.deepEqual(
      calls.map((c) => c.method),
      ['requestTransfer', 'transferV2', 'transferV2'],
    );
  });

  it('names the broken field of a stored request, never a value or a secret', async () => {
    const row = rowOf('card_payout');
    const sub = await submitPayout(
      connectorsOf(recordingClient([])),
      cipher,
      rowOf('card_payout', { request: { ...row.request, cardType: 'PLATINUM' } }),
    );
    assert.equal(sub.storedRequestInvalid, true);
    const text = JSON.stringify(sub);
    assert.match(text, /\/data\/cardType must be equal to one of the allowed values/);
    assert.doesNotMatch(text, /PLATINUM/);
    for (const sealed of Object.values(row.requestSecrets ?? {}))
      assert.ok(!text.includes(cipher.open(sealed)));
  });

  it('a stored request whose sealed secret is gone does not decode either (the card token is required)', async () => {
    const calls: Call[] = [];
    const sub = await submitPayout(
      connectorsOf(recordingClient(calls)),
      cipher,
      rowOf('card_payout', { requestSecrets: null }),
    );
    assert.deepEqual(calls, []);
    assert.match(sub.result.diagnostics.message ?? '', /\/data must have required property 'cardToken'/);
  });
});
