-- Withdrawals keep the bank account as it was when requested (decision 144). Hand-written: the columns are
-- added nullable, filled from each withdrawal's account (the best record of where existing ones were meant to
-- go), then made NOT NULL, so the migration runs on a database that already has withdrawals.
ALTER TABLE "withdrawals" ADD COLUMN "bank_name" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "cbu" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "alias" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "holder_name" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "holder_cuit" text;--> statement-breakpoint
UPDATE "withdrawals" AS w SET "bank_name" = a."bank_name", "cbu" = a."cbu", "alias" = a."alias", "holder_name" = a."holder_name", "holder_cuit" = a."holder_cuit" FROM "bank_accounts" AS a WHERE a."id" = w."bank_account_id";--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "bank_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "cbu" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "holder_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "holder_cuit" SET NOT NULL;
