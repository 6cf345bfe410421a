/** Rules of invitations both the back office and the server use (docs/invitations.md). */

/** Most tickets one invitation (or one giveaway row) gives a person. */
export const MAX_INVITATION_QTY = 20;

/** Most rows one giveaway file may have. */
export const MAX_GIVEAWAY_ROWS = 10_000;

/** The spreadsheet people can start from (the giveaway page offers it to download). */
export const GIVEAWAY_TEMPLATE_CSV = "email,nombre,apellido,dni,cantidad,tipo de entrada\nsofia@example.com,Sofía,Peña,30123456,2,General\n";
