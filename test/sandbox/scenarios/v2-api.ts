import { SOURCE_ACCOUNT, VIRTUAL_ACCOUNT_IFSC } from '#sandbox';
import { SUCCESS_ACCOUNT, type Harness, type Res } from '../harness.js';
import { type ScenarioMap } from './common.js';

/** Scenarios for the Transfers V2 and Beneficiary V2 tables (provider-v2.md). */

type Body = Record<string, unknown>;

/** A standard transfer the sandbox accepts: a bank transfer to the success account. */
export function transferBody(h: Harness): Body {
  return {
    transfer_id: h.id('S'),
    transfer_amount: 10,
    transfer_mode: 'banktransfer',
    beneficiary_details: {
      beneficiary_name: 'Test Payee',
      beneficiary_instrument_details: {
        bank_account_number: SUCCESS_ACCOUNT.bankAccount,
        bank_ifsc: SUCCESS_ACCOUNT.ifsc,
      },
    },
  };
}

const bene = (b: Body): Body => b.beneficiary_details as Body;
const instrument = (b: Body): Body => bene(b).beneficiary_instrument_details as Body;

/** A change to a valid transfer body, making it fail one way. */
type Change = (b: Body) => void;

const TRANSFER_CHANGES: Readonly<Record<string, Change>> = {
  transferIdMissing: (b) => delete b.transfer_id,
  transferIdInvalid: (b) => (b.transfer_id = 'not-an-id!'),
  amountMissing: (b) => delete b.transfer_amount,
  amountInvalid: (b) => (b.transfer_amount = 0.5),
  modeInvalid: (b) => (b.transfer_mode = 'cash'),
  beneIdInvalid: (b) => (b.beneficiary_details = { beneficiary_id: 'not an id!' }),
  beneNameInvalid: (b) => (bene(b).beneficiary_name = 'T3st'),
  accountInvalid: (b) => (instrument(b).bank_account_number = '12'),
  ifscInvalid: (b) => (instrument(b).bank_ifsc = 'BAD'),
  vpaInvalid: (b) => {
    b.transfer_mode = 'upi';
    bene(b).beneficiary_instrument_details = { vpa: 'not a vpa' };
  },
  cardInvalid: (b) => {
    b.transfer_mode = 'card';
    bene(b).beneficiary_instrument_details = {
      card_details: { card_token: 'tok', card_network_type: 'AMEX' },
    };
  },
  contactInvalid: (b) => (bene(b).beneficiary_contact_details = { beneficiary_phone: '12' }),
  beneDetailsMissing: (b) => delete b.beneficiary_details,
  currencyInvalid: (b) => (b.transfer_currency = 'USD'),
  remarksInvalid: (b) => (b.transfer_remarks = 'no!'),
  fundsourceInvalid: (b) => (b.fundsource_id = 7),
};

function changed(h: Harness, change: Change): Body {
  const b = transferBody(h);
  change(b);
  return b;
}

const transfer = (h: Harness, body: Body): Promise<Res> => h.v2('POST', '/payout/transfers', body);

function mapChanges(run: (h: Harness, change: Change) => Promise<Res>): ScenarioMap {
  return Object.fromEntries(
    Object.entries(TRANSFER_CHANGES).map(([k, change]) => [k, (h: Harness) => run(h, change)]),
  );
}

export const V2_STANDARD_TRANSFER_SCENARIOS: ScenarioMap = {
  ...mapChanges((h, change) => transfer(h, changed(h, change))),
  beneNotFound: (h) =>
    transfer(
      h,
      changed(h, (b) => (b.beneficiary_details = { beneficiary_id: 'NOPE1' })),
    ),
  transferIdExists: async (h) => {
    const body = transferBody(h);
    await transfer(h, body);
    return transfer(h, body);
  },
};

export const V2_TRANSFER_STATUS_EXTRA: ScenarioMap = {
  cfTransferNotFound: (h) => h.v2('GET', '/payout/transfers?cf_transfer_id=1'),
};

const batch = (h: Harness, body: Body): Promise<Res> => h.v2('POST', '/payout/transfers/batch', body);

export const V2_BATCH_TRANSFER_SCENARIOS: ScenarioMap = {
  // The entry rows: the bad entry is transfers[0].
  ...mapChanges((h, change) => batch(h, { batch_transfer_id: h.id('B'), transfers: [changed(h, change)] })),
  batchIdMissing: (h) => batch(h, { transfers: [transferBody(h)] }),
  batchIdInvalid: (h) => batch(h, { batch_transfer_id: 'not-an-id', transfers: [transferBody(h)] }),
  transfersMissing: (h) => batch(h, { batch_transfer_id: h.id('B'), transfers: [] }),
  tooManyTransfers: (h) =>
    batch(h, { batch_transfer_id: h.id('B'), transfers: Array.from({ length: 5001 }, () => ({})) }),
  batchIdExists: async (h) => {
    const id = h.id('B');
    await batch(h, { batch_transfer_id: id, transfers: [transferBody(h)] });
    return batch(h, { batch_transfer_id: id, transfers: [transferBody(h)] });
  },
};

export const V2_BATCH_TRANSFER_STATUS_SCENARIOS: ScenarioMap = {
  batchIdMissing: (h) => h.v2('GET', '/payout/transfers/batch'),
  batchNotFound: (h) => h.v2('GET', '/payout/transfers/batch?batch_transfer_id=nope'),
  cfBatchNotFound: (h) => h.v2('GET', '/payout/transfers/batch?cf_batch_transfer_id=1'),
};

/** A beneficiary the sandbox registers. */
export function beneficiaryBody(h: Harness, bankAccount = SUCCESS_ACCOUNT.bankAccount): Body {
  return {
    beneficiary_id: h.id('BEN'),
    beneficiary_name: 'Test Payee',
    beneficiary_instrument_details: { bank_account_number: bankAccount, bank_ifsc: SUCCESS_ACCOUNT.ifsc },
    beneficiary_contact_details: { beneficiary_phone: '9876543210', beneficiary_email: 'p@example.com' },
  };
}

const create = (h: Harness, change: Change): Promise<Res> => {
  const b = beneficiaryBody(h);
  change(b);
  return h.v2('POST', '/payout/beneficiary', b);
};
const details = (b: Body): Body => b.beneficiary_instrument_details as Body;

export const V2_CREATE_BENEFICIARY_SCENARIOS: ScenarioMap = {
  beneIdLengthExceeded: (h) => create(h, (b) => (b.beneficiary_id = 'B'.repeat(51))),
  beneIdInvalid: (h) => create(h, (b) => (b.beneficiary_id = 'not an id')),
  ifscMissing: (h) => create(h, (b) => delete details(b).bank_ifsc),
  accountMissing: (h) => create(h, (b) => delete details(b).bank_account_number),
  accountLengthExceeded: (h) => create(h, (b) => (details(b).bank_account_number = '1'.repeat(19))),
  accountLengthShort: (h) => create(h, (b) => (details(b).bank_account_number = '12345')),
  accountInvalid: (h) => create(h, (b) => (details(b).bank_account_number = '12345678-9')),
  ifscInvalid: (h) => create(h, (b) => (details(b).bank_ifsc = 'BAD')),
  beneIdMissing: (h) => create(h, (b) => delete b.beneficiary_id),
  nameInvalid: (h) => create(h, (b) => (b.beneficiary_name = 'N4me')),
  vpaInvalid: (h) => create(h, (b) => (b.beneficiary_instrument_details = { vpa: 'not a vpa' })),
  instrumentMissing: (h) => create(h, (b) => delete b.beneficiary_instrument_details),
  contactInvalid: (h) => create(h, (b) => (b.beneficiary_contact_details = { beneficiary_phone: '12' })),
  beneIdExists: async (h) => {
    const first = beneficiaryBody(h);
    await h.v2('POST', '/payout/beneficiary', first);
    return create(h, (b) => {
      b.beneficiary_id = first.beneficiary_id;
      details(b).bank_account_number = '123456789012';
    });
  },
  beneExists: async (h) => {
    await h.v2('POST', '/payout/beneficiary', beneficiaryBody(h));
    return create(h, () => undefined);
  },
  sameAsSource: (h) => create(h, (b) => (b.beneficiary_instrument_details = { ...SOURCE_ACCOUNT_BODY })),
  vbaNotAllowed: (h) => create(h, (b) => (details(b).bank_ifsc = VIRTUAL_ACCOUNT_IFSC)),
};

const SOURCE_ACCOUNT_BODY = {
  bank_account_number: SOURCE_ACCOUNT.bankAccount,
  bank_ifsc: SOURCE_ACCOUNT.ifsc,
};

const getBene = (h: Harness, query: Record<string, string>): Promise<Res> =>
  h.v2('GET', `/payout/beneficiary?${new URLSearchParams(query).toString()}`);
const byAccount = (h: Harness, bank_account_number: string, bank_ifsc = SUCCESS_ACCOUNT.ifsc): Promise<Res> =>
  getBene(h, { bank_account_number, bank_ifsc });

export const V2_GET_BENEFICIARY_SCENARIOS: ScenarioMap = {
  beneIdLengthExceeded: (h) => getBene(h, { beneficiary_id: 'B'.repeat(51) }),
  beneIdInvalid: (h) => getBene(h, { beneficiary_id: 'not an id' }),
  ifscMissing: (h) => getBene(h, { bank_account_number: SUCCESS_ACCOUNT.bankAccount }),
  accountMissing: (h) => getBene(h, { bank_ifsc: SUCCESS_ACCOUNT.ifsc }),
  accountLengthExceeded: (h) => byAccount(h, '1'.repeat(19)),
  accountLengthShort: (h) => byAccount(h, '12345'),
  accountInvalid: (h) => byAccount(h, '12345678-9'),
  ifscInvalid: (h) => byAccount(h, SUCCESS_ACCOUNT.bankAccount, 'BAD'),
  tooManyParams: (h) =>
    getBene(h, {
      beneficiary_id: 'B1',
      bank_account_number: SUCCESS_ACCOUNT.bankAccount,
      bank_ifsc: SUCCESS_ACCOUNT.ifsc,
    }),
  identifiersMissing: (h) => getBene(h, {}),
  notFound: (h) => getBene(h, { beneficiary_id: 'NOPE1' }),
};

export const V2_REMOVE_BENEFICIARY_SCENARIOS: ScenarioMap = {
  beneIdMissing: (h) => h.v2('DELETE', '/payout/beneficiary'),
  beneIdLengthExceeded: (h) => h.v2('DELETE', `/payout/beneficiary?beneficiary_id=${'B'.repeat(51)}`),
  notFound: (h) => h.v2('DELETE', '/payout/beneficiary?beneficiary_id=NOPE1'),
};
