/** DI token of the operations use cases, one object (createOperationsUseCases). */
export const OPERATIONS = Symbol('OPERATIONS');
