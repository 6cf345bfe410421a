/**
 * Recomputes a virtual queue's draw (docs/queue.md): checks that the revealed
 * seed matches the commitment published before the opening, and prints the
 * places that joined before the opening in the drawn order.
 *
 *   npx tsx scripts/verify-queue-draw.ts --seed <drawSeed> --commitment <drawCommitment> ids.txt
 *
 * `ids.txt`: one place id per line (or the ids as arguments). Exit code 1 when
 * the seed does not match the commitment.
 */
import fs from "node:fs";
import { drawCommitment, drawKey, drawOrder } from "#server/queue/draw";

function main(argv: string[]): number {
  const args = [...argv];
  const take = (flag: string) => {
    const i = args.indexOf(flag);
    if (i < 0) return undefined;
    const [, value] = args.splice(i, 2);
    return value;
  };
  const seed = take("--seed");
  const commitment = take("--commitment");
  if (!seed || !commitment) {
    console.error("Uso: npx tsx scripts/verify-queue-draw.ts --seed <semilla> --commitment <compromiso> ids.txt|id…");
    return 2;
  }
  const ids = args.flatMap((arg) => (fs.existsSync(arg) ? fs.readFileSync(arg, "utf8").split(/\s+/) : [arg])).filter(Boolean);
  const computed = drawCommitment(seed);
  if (computed !== commitment.toLowerCase()) {
    console.error(`La semilla NO corresponde al compromiso: SHA-256(semilla) = ${computed}`);
    return 1;
  }
  console.log(`La semilla corresponde al compromiso publicado (${commitment}).`);
  drawOrder(seed, ids).forEach((id, i) => console.log(`${i + 1}\t${id}\t${drawKey(seed, id)}`));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
