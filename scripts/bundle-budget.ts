/**
 * The buyer pages' JavaScript budget (decision 124), as pure functions over the
 * Remix manifest of a production build: what each page downloads before it
 * is interactive (the shell every page shares, entry + root, plus the route
 * and its static imports), how many script requests that is, and whether the
 * shell or a page is over its budget or a page carries back-office code. `scripts/bench-bundle.ts`
 * reads the build and prints it; CI fails when `checkBuyerBudget` does.
 * Lazily imported chunks (Sentry's SDK, loaded only with a DSN) are not in a
 * route's manifest imports, so they are not counted.
 */

/**
 * Every buyer page: at most this much gzip JavaScript (100 kB, kB = 1024 bytes as the bench prints). Not
 * tighter: the heaviest pages (/eventos/{slug} 99.2 kB, the payer form 99.1 kB on 2026-11-29) leave less
 * than 1 kB of margin under it (decision 239).
 */
export const BUYER_BUDGET_BYTES = 100 * 1024;

/**
 * The shell every page shares (entry + root): measured at 89.7 kB (91,882 bytes) on 2026-11-29, plus 1.3 kB of
 * margin. Of that, ~78 kB are React 18 and Remix 2 themselves (docs/benchmarks.md, "Qué hay en el shell";
 * decision 239).
 */
export const SHELL_BUDGET_BYTES = 91 * 1024;

/**
 * The second performance round's targets (shell ≤ 70 kB, every buyer page ≤ 90 kB; decision 239): printed by `bench:bundle` as how far we are,
 * not enforced. React DOM, the Remix router and @remix-run/react alone are ~66 kB gzip of the shell.
 */
export const SHELL_GOAL_BYTES = 70 * 1024;
export const BUYER_GOAL_BYTES = 90 * 1024;

export const BUYER_ROUTES: ReadonlyArray<readonly [url: string, routeId: string]> = [
  ["/", "routes/_index"],
  ["/eventos/{slug}", "routes/eventos.$slug"],
  ["/checkout/payer-info/{eventSlug}", "routes/checkout.payer-info.$eventSlug"],
  ["/checkout/{billingId}", "routes/checkout.$billingId"],
  ["/checkout/bank-transfer/{billingId}", "routes/checkout.bank-transfer.$billingId"],
  ["/checkout/status/{status}", "routes/checkout.status.$status"],
  ["/tickets/{billingId}", "routes/tickets.$billingId"],
  ["/cuenta/mis-tickets", "routes/cuenta.mis-tickets"],
  ["/cuenta/devoluciones", "routes/cuenta.devoluciones"],
  ["/canjear/{couponId}", "routes/canjear.$couponId"],
  ["/fila/{slug}", "routes/fila.$slug"],
  // Where a buyer signs up or in on the way to a purchase (decision 181).
  ["/cuenta/registro", "routes/cuenta.registro"],
  ["/cuenta/iniciar-sesion", "routes/cuenta.iniciar-sesion._index"],
  ["/cuenta/iniciar-sesion/email", "routes/cuenta.iniciar-sesion.email"],
];

/** The part of Remix's browser manifest (`build/client/assets/manifest-*.js`) this reads. */
export interface RemixManifestLike {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] } | undefined>;
}

export interface ChunkWeight {
  file: string;
  bytes: number;
}

export interface PageWeight {
  url: string;
  routeId: string;
  /** The route's chunks that are not in the shell, heaviest first. */
  own: ChunkWeight[];
  ownBytes: number;
  totalBytes: number;
  /** Script files the page loads (shell + route), one request each. */
  requests: number;
  /** Back-office chunks among the page's scripts (must be none). */
  backOffice: string[];
}

export interface BuyerBundleReport {
  shell: { files: string[]; bytes: number };
  pages: PageWeight[];
  /** Buyer routes the manifest does not have (renamed or removed: the budget would no longer see them). */
  missing: string[];
}

const BACK_OFFICE = /backoffice/i;

/** Weighs every buyer page; `gzipBytes` gives a manifest file's gzip size. */
export function measureBuyerPages(manifest: RemixManifestLike, gzipBytes: (file: string) => number, routes = BUYER_ROUTES): BuyerBundleReport {
  const root = manifest.routes.root;
  const shellFiles = [...new Set([manifest.entry.module, ...(manifest.entry.imports ?? []), ...(root ? [root.module, ...(root.imports ?? [])] : [])])];
  const shellBytes = shellFiles.reduce((sum, file) => sum + gzipBytes(file), 0);
  const shell = new Set(shellFiles);
  const pages: PageWeight[] = [];
  const missing: string[] = [];
  for (const [url, routeId] of routes) {
    const route = manifest.routes[routeId];
    if (!route) {
      missing.push(`${url} (${routeId})`);
      continue;
    }
    const routeFiles = [...new Set([route.module, ...(route.imports ?? [])])];
    const own = routeFiles
      .filter((file) => !shell.has(file))
      .map((file) => ({ file, bytes: gzipBytes(file) }))
      .sort((a, b) => b.bytes - a.bytes);
    const ownBytes = own.reduce((sum, chunk) => sum + chunk.bytes, 0);
    const all = new Set([...shellFiles, ...routeFiles]);
    pages.push({
      url,
      routeId,
      own,
      ownBytes,
      totalBytes: shellBytes + ownBytes,
      requests: all.size,
      backOffice: [...all].filter((file) => BACK_OFFICE.test(file)),
    });
  }
  return { shell: { files: shellFiles, bytes: shellBytes }, pages, missing };
}

export interface BudgetVerdict {
  ok: boolean;
  budgetBytes: number;
  shellBudgetBytes: number;
  /** The shared shell's gzip bytes when they are over its own budget; null when within it. */
  shellOverBudget: number | null;
  /** Pages over the budget, heaviest first. */
  overBudget: PageWeight[];
  /** "url: chunk" for every back-office chunk on a buyer page. */
  backOffice: string[];
  missing: string[];
}

/**
 * Fails when the shared shell is over its budget, a buyer page is over the pages' budget, carries back-office
 * code or is missing from the build.
 */
export function checkBuyerBudget(report: BuyerBundleReport, budgetBytes = BUYER_BUDGET_BYTES, shellBudgetBytes = SHELL_BUDGET_BYTES): BudgetVerdict {
  const overBudget = report.pages.filter((page) => page.totalBytes > budgetBytes).sort((a, b) => b.totalBytes - a.totalBytes);
  const backOffice = report.pages.flatMap((page) => page.backOffice.map((file) => `${page.url}: ${file}`));
  const shellOverBudget = report.shell.bytes > shellBudgetBytes ? report.shell.bytes : null;
  return {
    ok: shellOverBudget === null && !overBudget.length && !backOffice.length && !report.missing.length,
    budgetBytes,
    shellBudgetBytes,
    shellOverBudget,
    overBudget,
    backOffice,
    missing: report.missing,
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
