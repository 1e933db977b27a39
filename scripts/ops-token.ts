/**
 * `npm run ops:token`: a new operator token and the line for OPS_OPERATORS.
 *
 *   npm run ops:token -- alice approver      # prints a fresh token (give it to alice) and
 *                                            # `alice:approver:<sha256>` (put it in OPS_OPERATORS)
 *   printf %s "$TOKEN" | npm run -s ops:token -- --hash     # the SHA-256 of an existing token
 *
 * The service keeps only the hash; the token is shown once, here.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { OPERATOR_ROLES, sha256Hex } from '#operations';

const args = process.argv.slice(2);
if (args[0] === '--hash') {
  // From standard input, not the command line: a token in argv lands in shell history and `ps`.
  const token = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  if (token.length < 24) {
    console.error('a token must be at least 24 characters');
    process.exit(2);
  }
  console.log(sha256Hex(token));
} else {
  const [id, role] = args;
  if (
    !id ||
    !/^[A-Za-z0-9._-]{1,64}$/.test(id) ||
    !(OPERATOR_ROLES as readonly string[]).includes(role ?? '')
  ) {
    console.error(`usage: npm run ops:token -- <id> <${OPERATOR_ROLES.join('|')}>   |   ... --hash < token`);
    process.exit(2);
  }
  const token = randomBytes(32).toString('base64url');
  console.log(`token (give it to ${id}; it is not stored): ${token}`);
  console.log(`OPS_OPERATORS entry: ${id}:${role}:${sha256Hex(token)}`);
}
