/**
 * `npm run db:backup` writes a copy of the database to backups/ (or the path
 * given); `npm run db:restore -- <file> [target]` puts one back. With
 * DATABASE_URL: PostgreSQL through pg_dump/pg_restore. Without it: the
 * embedded PGlite under DATA_DIR (stop the server first). See docs/runbook.md.
 */
import path from "node:path";
import { env } from "../server/env";
import { BACKUP_DIR, backupFileName, backupPglite, backupPostgres, restorePglite, restorePostgres } from "../server/db/backup";

const [command, fileArg, targetArg] = process.argv.slice(2);
const config = env();
const pgliteDir = path.resolve(config.DATA_DIR, "pglite");

try {
  if (command === "backup") {
    if (config.DATABASE_URL) {
      const file = await backupPostgres(config.DATABASE_URL, fileArg ?? path.join(BACKUP_DIR, backupFileName("postgres")));
      console.log(`Copia de PostgreSQL guardada en ${file}`);
    } else {
      const file = await backupPglite(pgliteDir, fileArg ?? path.join(BACKUP_DIR, backupFileName("pglite")));
      console.log(`Copia de la base embebida guardada en ${file}`);
    }
  } else if (command === "restore") {
    if (!fileArg) throw new Error("Decí qué copia restaurar: npm run db:restore -- backups/<archivo>");
    if (config.DATABASE_URL) {
      await restorePostgres(targetArg ?? config.DATABASE_URL, fileArg);
      console.log("Copia restaurada en PostgreSQL.");
    } else {
      const target = path.resolve(targetArg ?? pgliteDir);
      await restorePglite(target, fileArg);
      console.log(`Copia restaurada en ${target}.`);
    }
  } else {
    throw new Error("Uso: db-backup.ts backup [archivo] | restore <archivo> [destino]");
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
