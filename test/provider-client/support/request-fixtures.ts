export const rt = { beneId: 'bene1', amount: '100.00', transferId: 'tr_1' };
export const dt = {
  amount: '100.00',
  transferId: 'tr_1',
  beneDetails: { bankAccount: '026291800001191', ifsc: 'YESB0000262', name: 'A' },
};
export const cp = {
  token: 'card-token-secret-123',
  amount: '10.00',
  transferId: 'tr-1',
  cardType: 'DEBIT' as const,
};
export const bt = {
  batchTransferId: 'batch_1',
  batchFormat: 'BANK_ACCOUNT' as const,
  batch: [
    {
      transferId: 't1',
      amount: '10.50',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      name: 'A',
      phone: '9999999999',
    },
  ],
};
export const pvp = {
  transferId: 'tr_v2_1',
  transferAmount: '100.50',
  transferToken: 'transfer-token-secret',
};
export const sdk = {
  appId: 'app1',
  product: 'VKYC',
  metadata: { vkyc_request_id: 7 },
  authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
};
/** Standard Transfer V2 to a registered beneficiary, and a direct one with inline bank details. */
export const tv2 = {
  transferId: 'tr_v2_1',
  amount: '100.10',
  transferMode: 'imps' as const,
  beneficiary: { beneficiaryId: 'bene1' },
  remarks: 'rent',
};
export const tv2Inline = {
  transferId: 'tr_v2_2',
  amount: '1234567890123.45',
  beneficiary: { name: 'Asha Rao', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
};
export const btv2 = {
  batchTransferId: 'batch_v2_1',
  transfers: [tv2Inline, { ...tv2, transferId: 'tr_v2_3' }],
};
