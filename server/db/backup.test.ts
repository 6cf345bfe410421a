import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, hasPostgresServer, withDatabase } from "#tests/support/db";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { backupFileName, backupPostgres, restorePostgres } from "./backup";

const exec = promisify(execFile);

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await exec(process.execPath, ["--import", "tsx", "scripts/db-backup.ts", ...args], { env, cwd: process.cwd() });
    return stdout;
  } catch (error) {
    throw new Error((error as { stderr?: string }).stderr || String(error));
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-backup-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("npm run db:backup / db:restore", () => {
  it("the embedded database, through the npm scripts: a copy restored into an empty folder has the same rows, and a restore never overwrites a live folder", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const dataDir = path.join(work, "data");
    fs.mkdirSync(dataDir, { recursive: true });
    const db = new PGlite(path.join(dataDir, "pglite"));
    await db.exec("create table ventas (codigo text primary key, total int); insert into ventas values ('TRB-ABC123', 1500000), ('TRB-XYZ789', 990000);");
    await db.close();

    // The real CLI in its own process, as `npm run db:backup` runs it (PGlite is single-process: the server would be stopped).
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
    const file = path.join(work, backupFileName("pglite"));
    const backup = await cli(["backup", file], env);
    expect(backup).toContain(`Copia de la base embebida guardada en ${file}`);
    expect(fs.statSync(file).size).toBeGreaterThan(0);

    const target = path.join(work, "restaurada");
    expect(await cli(["restore", file, target], env)).toContain(`Copia restaurada en ${target}`);
    const restored = new PGlite(target);
    const { rows } = await restored.query<{ codigo: string; total: number }>("select codigo, total from ventas order by codigo");
    await restored.close();
    expect(rows).toEqual([
      { codigo: "TRB-ABC123", total: 1500000 },
      { codigo: "TRB-XYZ789", total: 990000 },
    ]);
    await expect(cli(["restore", file], env)).rejects.toThrow(/no está vacía/);
  }, 90_000);

  it.runIf(hasPostgresServer)("PostgreSQL: pg_dump and pg_restore round-trip into another database", async () => {
    const url = process.env.DATABASE_URL!;
    const suffix = crypto.randomBytes(4).toString("hex");
    const [sourceName, targetName] = [`tribuna_backup_src_${suffix}`, `tribuna_backup_dst_${suffix}`];
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${sourceName}`);
    await admin.unsafe(`CREATE DATABASE ${targetName}`);
    await admin.end();
    try {
      const source = postgres(withDatabase(url, sourceName), { max: 1, onnotice: () => {} });
      await source.unsafe("create table ventas (codigo text primary key, total int); insert into ventas values ('TRB-ABC123', 1500000);");
      await source.end();

      const file = await backupPostgres(withDatabase(url, sourceName), path.join(work, backupFileName("postgres")));
      await restorePostgres(withDatabase(url, targetName), file);

      const target = postgres(withDatabase(url, targetName), { max: 1, onnotice: () => {} });
      const rows = await target`select codigo, total from ventas`;
      await target.end();
      expect(rows).toEqual([{ codigo: "TRB-ABC123", total: 1500000 }]);
    } finally {
      await dropDatabase(url, sourceName);
      await dropDatabase(url, targetName);
    }
  });
});
