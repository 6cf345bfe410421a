/**
 * The shell's links, in one place: the header, the drawer and their tests
 * read them from here. Paths are the spec's.
 */
export type ShellUser = { firstName: string | null; isOrganizer: boolean; isAdmin: boolean };

/** What the header shows for the signed-in user: the first name, or "Mi cuenta" while it is missing. */
export function accountLabel(user: ShellUser): string {
  return user.firstName?.trim() || "Mi cuenta";
}
export type NavItem = { to: string; label: string; end?: boolean };

export const PATHS = {
  home: "/",
  help: "/ayuda",
  terms: "/terminos-y-condiciones",
  signIn: "/cuenta/iniciar-sesion",
  signUp: "/cuenta/registro",
  signOut: "/cuenta/cerrar-sesion",
  myAccount: "/cuenta/mi-cuenta",
  myTickets: "/cuenta/mis-tickets",
  refunds: "/cuenta/devoluciones",
  organization: "/organizacion/resumen",
  impersonate: "/cuenta/imperson",
  themeAction: "/preferencias/tema",
} as const;

/**
 * The back office (/organizacion…, /admin…) keeps the drawer open beside the
 * content from md up; every other page is the storefront (header, content,
 * footer), where the drawer opens from the header's menu button at every width.
 */
export function isBackOffice(pathname: string): boolean {
  return /^\/(organizacion|admin)(\/|$)/.test(pathname);
}

export const WITHDRAWAL_LABEL = "Botón de arrepentimiento";

/** Header and drawer: everyone. */
export function mainLinks(user: ShellUser | null): NavItem[] {
  const items: NavItem[] = [
    { to: PATHS.home, label: "Eventos", end: true },
    { to: PATHS.help, label: "Ayuda" },
  ];
  if (user) items.push({ to: PATHS.myTickets, label: "Mis tickets" });
  return items;
}

/** Drawer only: by role. */
export function roleLinks(user: ShellUser | null): NavItem[] {
  const items: NavItem[] = [];
  if (user?.isOrganizer) items.push({ to: PATHS.organization, label: "Mi organización" });
  if (user?.isAdmin) items.push({ to: PATHS.impersonate, label: "Ingresar como otra persona" });
  return items;
}

export function legalLinks(): NavItem[] {
  return [
    { to: PATHS.terms, label: "Términos y condiciones" },
    { to: PATHS.refunds, label: WITHDRAWAL_LABEL },
  ];
}
