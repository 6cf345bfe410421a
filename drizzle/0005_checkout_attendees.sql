ALTER TABLE "events" ADD COLUMN "one_holder_per_ticket" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "attendees" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "custom_fields" jsonb;