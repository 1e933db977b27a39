import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  deliveryTimestampMs,
  eventTimeWithin,
  maskWebhookText,
  parseEventTime,
  unexpectedV1Fields,
  V1_FIELDS,
} from './webhook-shape.js';

const BASE = [
  'event',
  'transferId',
  'referenceId',
  'utr',
  'acknowledged',
  'eventTime',
  'reason',
  'signature',
];

describe('v1 field names', () => {
  // Every documented event type: its own names pass; a name of another event or an invented one does not.
  const own: Record<string, readonly string[]> = {
    TRANSFER_SUCCESS: [],
    TRANSFER_FAILED: [],
    TRANSFER_REVERSED: [],
    TRANSFER_ACKNOWLEDGED: [],
    TRANSFER_REJECTED: [],
    CREDIT_CONFIRMATION: ['amount'],
    BENEFICIARY_INCIDENT: ['beneId'],
    LOW_BALANCE_ALERT: ['currentBalance', 'threshold'],
  };
  it('the table holds exactly the documented event types', () => {
    assert.deepEqual(Object.keys(V1_FIELDS).sort(), Object.keys(own).sort());
  });
  for (const [event, extra] of Object.entries(own)) {
    it(`${event}: the base fields${extra.length ? ` and ${extra.join(', ')}` : ''} pass, nothing else`, () => {
      assert.deepEqual(unexpectedV1Fields(event, [...BASE, ...extra]), []);
      assert.deepEqual(unexpectedV1Fields(event, ['event', 'transferId']), [], 'a subset passes');
      assert.deepEqual(unexpectedV1Fields(event, [...BASE, 'referenceIdx']), ['referenceIdx']);
      const foreign = extra.includes('beneId') ? 'amount' : 'beneId';
      assert.deepEqual(unexpectedV1Fields(event, [...BASE, foreign]), [foreign]);
    });
  }
  it('an event type not documented gets the base set; a prototype key is no event type', () => {
    assert.deepEqual(unexpectedV1Fields('SOMETHING_NEW', [...BASE, 'x']), ['x']);
    assert.deepEqual(unexpectedV1Fields('constructor', [...BASE, 'amount']), ['amount']);
  });
});

describe('event times', () => {
  const cases: ReadonlyArray<[string, string, number | undefined]> = [
    ['ISO with Z', '2026-11-24T08:09:25.000Z', Date.UTC(2026, 10, 24, 8, 9, 25)],
    ['ISO with an offset', '2026-11-24T13:39:25+05:30', Date.UTC(2026, 10, 24, 8, 9, 25)],
    ['zone-less, space: India time', '2026-11-24 13:39:25', Date.UTC(2026, 10, 24, 8, 9, 25)],
    ['zone-less, T: India time', '2026-11-24T13:39:25', Date.UTC(2026, 10, 24, 8, 9, 25)],
    ['zone-less with a fraction', '2026-11-24 13:39:25.250', Date.UTC(2026, 10, 24, 8, 9, 25, 250)],
    ['across midnight', '2026-11-25 02:00:00', Date.UTC(2026, 10, 24, 20, 30, 0)],
    ['a trailing character', '2026-11-24T08:09:25.000ZB', undefined],
    ['a date that does not exist', '2026-02-30 10:00:00', undefined],
    ['a date only', '2026-11-24', undefined],
    ['epoch digits', '1764000000000', undefined],
    ['empty', '', undefined],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => assert.equal(parseEventTime(text), want));
  }
  it('absent', () => assert.equal(parseEventTime(undefined), undefined));

  it('bounded both ways, the bounds included', () => {
    const now = 1_000_000_000;
    assert.equal(eventTimeWithin(now - 3_600_000, now, 3_600_000, 300_000), true);
    assert.equal(eventTimeWithin(now - 3_600_001, now, 3_600_000, 300_000), false);
    assert.equal(eventTimeWithin(now + 300_000, now, 3_600_000, 300_000), true);
    assert.equal(eventTimeWithin(now + 300_001, now, 3_600_000, 300_000), false);
  });
});

describe('v2 delivery timestamps', () => {
  it('milliseconds are read as milliseconds', () => {
    assert.equal(deliveryTimestampMs('1764000000123'), 1_764_000_000_123);
  });
  it('seconds (and fractional seconds) are read as seconds', () => {
    assert.equal(deliveryTimestampMs('1764000000'), 1_764_000_000_000);
    assert.equal(deliveryTimestampMs('1764000000.5'), 1_764_000_000_500);
  });
  it('anything else is unreadable', () => {
    for (const bad of ['', '-1764000000', '1e12', 'abc', '17640000001234567', '1764000000.1234567']) {
      assert.equal(deliveryTimestampMs(bad), undefined, bad);
    }
  });
});

describe('webhook free text', () => {
  it('account numbers keep their last 4; amounts and short codes stay; long text is cut', () => {
    assert.equal(
      maskWebhookText('Account 026291800001191 closed; limit Rs. 100000'),
      'Account XXXXXXXXXXX1191 closed; limit Rs. 100000',
    );
    assert.equal(maskWebhookText('FAILED'), 'FAILED');
    assert.equal(
      maskWebhookText('Credit to asha@okicici failed; notified asha.rao@example.com'),
      'Credit to as***@okicici failed; notified as***@example.com',
    );
    assert.equal(maskWebhookText(undefined), undefined);
    const long = maskWebhookText('x'.repeat(1_000));
    assert.equal(long?.length, 301);
  });
});
