ALTER TABLE "door_scans" DROP CONSTRAINT "door_scans_outcome_check";--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "kind" text DEFAULT 'ticket' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "menu_category" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_kind_check" CHECK ("ticket_types"."kind" in ('ticket','menu'));--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_menu_category_check" CHECK ("ticket_types"."menu_category" is null or "ticket_types"."menu_category" in ('drink','food','combo'));--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_outcome_check" CHECK ("door_scans"."outcome" in ('admitted','already_in','conflict','voided','other_event','other_date','wrong_place','unknown'));