ALTER TABLE "events" ADD COLUMN "max_tickets_per_account" integer;--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "holder_document_type" text;--> statement-breakpoint
ALTER TABLE "issued_products" ADD COLUMN "holder_document_number" text;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD COLUMN "from_document" text;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD COLUMN "to_document" text;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_max_tickets_per_account_check" CHECK ("events"."max_tickets_per_account" is null or "events"."max_tickets_per_account" between 1 and 1000);