/** DI token of the process's pg pool. */
export const PG_POOL = Symbol('PG_POOL');
