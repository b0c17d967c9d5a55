/* The errors a restore throws: any refusal or failure rolls the whole restore back. */

export class RestoreError extends Error {
  override name = 'RestoreError';
}

/** The target database already has the product's tables or data, and --force was not given. */
export class RestoreRefusedError extends RestoreError {
  override name = 'RestoreRefusedError';
}
