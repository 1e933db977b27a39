import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '#config';
import { operationsConfig } from './operations.config.js';
import {
  ACTION_ROLE,
  mayDo,
  OPERATOR_ROLES,
  OperatorDirectory,
  roleAllows,
  sha256Hex,
  type Via,
} from './operators.js';

const load = (v: string) => loadConfig([operationsConfig], { OPS_OPERATORS: v })[0];

describe('operator roles', () => {
  // Every (role, action) pair: viewer < operator < approver.
  const table: Record<(typeof OPERATOR_ROLES)[number], Record<keyof typeof ACTION_ROLE, boolean>> = {
    viewer: {
      read: true,
      recheck: false,
      replay: false,
      propose: false,
      acknowledge: false,
      beneficiary: false,
      decide: false,
      approve_payout: false,
      cancel_held: false,
      tokens: false,
    },
    operator: {
      read: true,
      recheck: true,
      replay: true,
      propose: true,
      acknowledge: true,
      beneficiary: true,
      decide: false,
      approve_payout: true,
      cancel_held: true,
      tokens: false,
    },
    approver: {
      read: true,
      recheck: true,
      replay: true,
      propose: true,
      acknowledge: true,
      beneficiary: true,
      decide: true,
      approve_payout: true,
      cancel_held: true,
      tokens: true,
    },
  };
  for (const role of OPERATOR_ROLES)
    for (const action of Object.keys(ACTION_ROLE) as Array<keyof typeof ACTION_ROLE>)
      it(`${role} ${table[role][action] ? 'may' : 'may not'} ${action}`, () => {
        assert.equal(roleAllows(role, action), table[role][action]);
      });
});

describe('automation tokens', () => {
  const token: Via = { kind: 'token', tokenId: '1', tokenName: 'bot' };
  // Whatever its role, a token neither decides nor manages tokens; all else as its role allows.
  for (const action of Object.keys(ACTION_ROLE) as Array<keyof typeof ACTION_ROLE>) {
    const may = action !== 'decide' && action !== 'tokens';
    it(`an approver token ${may ? 'may' : 'may not'} ${action}`, () => {
      assert.equal(mayDo({ role: 'approver', via: token }, action), may);
      assert.equal(mayDo({ role: 'approver', via: { kind: 'session' } }, action), true);
    });
  }
});

describe('OPS_OPERATORS', () => {
  const a = sha256Hex('alice-token-0123456789abcdef');
  const b = sha256Hex('bob-token-0123456789abcdef');

  it('parses id:role:sha256 entries, and the directory finds each by their own token only', () => {
    const c = load(`alice:approver:${a}, bob:viewer:${b}`);
    const dir = new OperatorDirectory(c.OPS_OPERATORS);
    assert.deepEqual(dir.authenticate('alice-token-0123456789abcdef'), {
      id: 'alice',
      name: 'alice',
      role: 'approver',
      via: { kind: 'configured' },
    });
    assert.deepEqual(dir.authenticate('bob-token-0123456789abcdef'), {
      id: 'bob',
      name: 'bob',
      role: 'viewer',
      via: { kind: 'configured' },
    });
    assert.equal(dir.authenticate(a), undefined, 'the hash itself is not a token');
    assert.equal(dir.authenticate('nobody'), undefined);
  });

  it('empty: the API is off', () => {
    assert.equal(new OperatorDirectory(load('').OPS_OPERATORS).enabled, false);
  });

  for (const [name, value] of [
    ['a token in clear', 'alice:approver:alice-token-0123456789abcdef'],
    ['an uppercase or short hash', `alice:approver:${a.toUpperCase()}`],
    ['an unknown role', `alice:admin:${a}`],
    ['a missing part', `alice:${a}`],
    ['a shared token', `alice:approver:${a},bob:viewer:${a}`],
    ['a repeated id', `alice:approver:${a},alice:viewer:${b}`],
  ] as const)
    it(`refuses ${name} at boot, without repeating the value`, () => {
      assert.throws(
        () => load(value),
        (e: Error) => {
          assert.ok(!e.message.includes('alice-token'), e.message);
          assert.ok(!e.message.includes(a), 'the hash is not printed either');
          return /OPS_OPERATORS/.test(e.message);
        },
      );
    });
});
