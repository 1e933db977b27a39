import { querySchemas } from '#contracts';
import { type Json, nullable, ref, str, time } from './http/openapi-parts.js';
import { ACTION_ROLE, OPERATOR_ROLES } from './operators.js';

/**
 * Who is asking, automation tokens and beneficiaries: components of the OpenAPI document
 * (openapi.ts). A beneficiary's registration is the contracts' own schema (`beneficiary.create`).
 */
export function accessSchemas(): Record<string, Json> {
  return {
    Me: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description:
            "the human answerable: a configured operator's id, `oidc:<issuer>#<subject>` for a console session, a token's issuer",
        },
        name: { type: 'string', description: 'for display only' },
        role: { type: 'string', enum: [...OPERATOR_ROLES] },
        via: { type: 'string', description: 'configured, session or token:<name>' },
        may: { type: 'array', items: { type: 'string', enum: Object.keys(ACTION_ROLE) } },
      },
      required: ['id', 'name', 'role', 'via', 'may'],
    },
    Token: {
      type: 'object',
      properties: {
        id: str,
        name: str,
        role: { type: 'string', enum: [...OPERATOR_ROLES] },
        createdBy: { type: 'string', description: "the issuer's human id: the token acts as them" },
        createdByName: str,
        createdAt: time,
        expiresAt: time,
        lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
        revokedAt: { type: ['string', 'null'], format: 'date-time' },
        revokedBy: nullable('string'),
        revokedByName: nullable('string'),
      },
      required: [
        'id',
        'name',
        'role',
        'createdBy',
        'createdByName',
        'createdAt',
        'expiresAt',
        'lastUsedAt',
        'revokedAt',
        'revokedBy',
      ],
    },
    IssuedToken: {
      allOf: [
        ref('Token'),
        {
          type: 'object',
          properties: { token: { type: 'string', description: 'the token: shown once, never again' } },
          required: ['token'],
        },
      ],
    },
    Beneficiary: {
      type: ['object', 'null'],
      description: 'masked: account numbers keep their last 4 digits, VPAs their first letters and handle',
      properties: { beneId: str, bankAccount: str, ifsc: str, vpa: str },
    },
    BeneficiaryInput: querySchemas['beneficiary.create'].properties.data as unknown as Json,
    BeneficiaryAnswer: {
      type: 'object',
      properties: {
        accountId: str,
        generation: {
          type: 'string',
          enum: ['v1', 'v2'],
          description: 'the provider API generation that answered',
        },
        result: { type: 'string', enum: ['created', 'exists', 'found', 'deleted', 'absent'] },
        beneficiary: {
          type: 'object',
          description:
            'masked: account number (last 4 digits), VPA, phone and email; status and addedOn on v2 accounts',
          properties: {
            beneId: str,
            name: str,
            bankAccount: str,
            ifsc: str,
            vpa: str,
            email: str,
            phone: str,
            city: str,
            state: str,
            status: str,
            addedOn: str,
          },
          required: ['beneId'],
        },
      },
      required: ['accountId', 'generation', 'result'],
    },
  };
}
