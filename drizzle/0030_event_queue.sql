CREATE TABLE "event_queues" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"admission_minutes" integer DEFAULT 10 NOT NULL,
	"admit_per_minute" integer,
	"paused" boolean DEFAULT false NOT NULL,
	"draw_seed" text NOT NULL,
	"draw_commitment" text NOT NULL,
	"drawn_at" timestamp with time zone,
	"next_position" integer DEFAULT 0 NOT NULL,
	"admitted_through" integer DEFAULT 0 NOT NULL,
	"sold_out" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_queues_admission_minutes_check" CHECK ("event_queues"."admission_minutes" between 1 and 120),
	CONSTRAINT "event_queues_admit_per_minute_check" CHECK ("event_queues"."admit_per_minute" is null or "event_queues"."admit_per_minute" > 0),
	CONSTRAINT "event_queues_watermark_check" CHECK ("event_queues"."admitted_through" >= 0 and "event_queues"."admitted_through" <= "event_queues"."next_position")
);
--> statement-breakpoint
CREATE TABLE "queue_places" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"arrival" bigint GENERATED ALWAYS AS IDENTITY (sequence name "queue_places_arrival_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"joined_at" timestamp with time zone NOT NULL,
	"position" integer,
	"status" text DEFAULT 'waiting' NOT NULL,
	"admitted_at" timestamp with time zone,
	"admission_expires_at" timestamp with time zone,
	"bought_at" timestamp with time zone,
	CONSTRAINT "queue_places_status_check" CHECK ("queue_places"."status" in ('waiting','admitted','bought','left'))
);
--> statement-breakpoint
ALTER TABLE "event_queues" ADD CONSTRAINT "event_queues_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_places" ADD CONSTRAINT "queue_places_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_places" ADD CONSTRAINT "queue_places_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_places_event_user_key" ON "queue_places" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_places_event_position_key" ON "queue_places" USING btree ("event_id","position");--> statement-breakpoint
CREATE INDEX "queue_places_event_arrival_idx" ON "queue_places" USING btree ("event_id","arrival");--> statement-breakpoint
CREATE INDEX "queue_places_event_status_idx" ON "queue_places" USING btree ("event_id","status");