/**
 * For a server process a test starts itself (scripts/crash-test.ts): `node --import` this file and set
 * TRIBUNA_TEST_WEBHOOK_RECEIVER=127.0.0.1:<port>, and that one receiver of the test is let through although it is
 * not a public address (the test policy of server/http/safe-destination.ts, on globalThis). The server never reads
 * the variable: without this file preloaded it means nothing, so a deployment cannot turn it on by mistake.
 */
const receiver = process.env.TRIBUNA_TEST_WEBHOOK_RECEIVER ?? "";
const match = /^(127\.0\.0\.1|::1):(\d{1,5})$/.exec(receiver);
if (match) {
  const [, address, port] = match;
  globalThis[Symbol.for("tribuna.outgoing-test-policy")] = { allow: (to, toPort) => to === address && toPort === Number(port) };
}
