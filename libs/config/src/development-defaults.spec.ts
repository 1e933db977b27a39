import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defineSection, env, envVar } from './config-section.js';
import { developmentValuesInUse, isLocalHost, providerUrlRefusal } from './development-defaults.js';

const section = defineSection('t', {
  SECRET: envVar({ schema: env.string(), default: 'dev-secret', description: 's', sensitive: true }),
  HOSTS: envVar({ schema: env.string(), default: '', description: 'h' }),
});
const rules = [
  { variable: 'SECRET', why: 'it is the development secret' },
  {
    variable: 'HOSTS',
    why: 'unused: no default',
    refuse: { what: 'x', check: (v: string) => (v.includes('bad') ? 'a bad host' : undefined) },
  },
];

describe('developmentValuesInUse', () => {
  it('names a variable left unset, one set to its default, and one set to a refused value; never a value', () => {
    assert.deepEqual(developmentValuesInUse([section], rules, {}), [
      { variable: 'SECRET', problem: 'SECRET is not set, so it is the development secret' },
    ]);
    assert.deepEqual(
      developmentValuesInUse([section], rules, { SECRET: 'dev-secret', HOSTS: 'a-bad-one' }).map(
        (d) => d.problem,
      ),
      ['SECRET is set to its development default: it is the development secret', 'HOSTS: a bad host'],
    );
    assert.deepEqual(developmentValuesInUse([section], rules, { SECRET: 'own', HOSTS: 'fine' }), []);
  });

  it('throws on a row for an undeclared variable (a typo would otherwise check nothing)', () => {
    assert.throws(() => developmentValuesInUse([section], [{ variable: 'SECRT', why: '' }], {}), /SECRT/);
  });
});

describe('provider URLs in production', () => {
  it('knows this machine', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'api.localhost'])
      assert.ok(isLocalHost(h), h);
    for (const h of ['10.0.0.1', 'localhost.example', 'provider.example']) assert.ok(!isLocalHost(h), h);
  });

  it('refuses the sandbox and plain http to another machine, and nothing else', () => {
    assert.match(providerUrlRefusal('sandbox') ?? '', /local provider sandbox/);
    assert.match(
      providerUrlRefusal('https://sandbox.cashfree.com/payout') ?? '',
      /sandbox\.cashfree\.com is a sandbox/,
    );
    assert.match(providerUrlRefusal('https://payout-sandbox.example') ?? '', /is a sandbox/);
    assert.match(providerUrlRefusal('http://10.0.0.7:8080') ?? '', /plain http to 10\.0\.0\.7/);
    assert.match(providerUrlRefusal('https://provider.example.invalid') ?? '', /is a placeholder/);
    assert.equal(providerUrlRefusal('http://127.0.0.1:3128'), undefined);
    assert.equal(providerUrlRefusal('https://api.cashfree.com/payout'), undefined);
  });
});
