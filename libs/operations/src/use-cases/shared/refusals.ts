import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';

export function invalid(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.InvalidInput, message);
}

export function notFound(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.NotFound, message);
}
