import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Backups of either database (runbook: "Copias de seguridad"):
 * - PostgreSQL: `pg_dump --format=custom` (every table, schema included) and
 *   `pg_restore --clean --if-exists` back into the same or a new database.
 * - Embedded PGlite: its data folder as one gzip tarball (`dumpDataDir`),
 *   restored into an empty folder. PGlite is single-process, so the server
 *   must be stopped while it is copied or restored.
 */
export const BACKUP_DIR = "backups";

export function backupFileName(kind: "postgres" | "pglite", now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return kind === "postgres" ? `tribuna-${stamp}.dump` : `tribuna-pglite-${stamp}.tar.gz`;
}

async function requireTool(tool: "pg_dump" | "pg_restore") {
  try {
    await run(tool, ["--version"]);
  } catch {
    throw new Error(`No encontramos ${tool}: instalá el cliente de PostgreSQL de la misma versión mayor que el servidor (por ejemplo apt-get install postgresql-client).`);
  }
}

export async function backupPostgres(databaseUrl: string, file: string): Promise<string> {
  await requireTool("pg_dump");
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, databaseUrl], { maxBuffer: 16 * 1024 * 1024 });
  return file;
}

export async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  await requireTool("pg_restore");
  if (!fs.existsSync(file)) throw new Error(`No existe el archivo ${file}`);
  await run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", `--dbname=${databaseUrl}`, file], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

export async function backupPglite(dataDir: string, file: string): Promise<string> {
  if (!fs.existsSync(dataDir)) throw new Error(`No hay base embebida en ${dataDir}`);
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dataDir);
  try {
    // dumpDataDir on a database still starting never settles: wait for it first.
    await db.waitReady;
    const dump = await db.dumpDataDir("gzip");
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  return file;
}

/** Restores into `dataDir`, which must not exist or be empty: a restore never overwrites a live database by accident. */
export async function restorePglite(dataDir: string, file: string): Promise<void> {
  if (!fs.existsSync(file)) throw new Error(`No existe el archivo ${file}`);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} no está vacía: mové la base actual a otro lado (o elegí otra carpeta) antes de restaurar.`);
  }
  const { PGlite } = await import("@electric-sql/pglite");
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new PGlite(dataDir, { loadDataDir: new Blob([fs.readFileSync(file)]) });
  await db.waitReady;
  await db.close();
}
