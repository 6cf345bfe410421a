CREATE TABLE "wallet_device_registrations" (
	"device_library_id" text NOT NULL,
	"pass_type_id" text NOT NULL,
	"serial_number" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_device_registrations_device_library_id_pass_type_id_serial_number_pk" PRIMARY KEY("device_library_id","pass_type_id","serial_number")
);
--> statement-breakpoint
CREATE TABLE "wallet_pass_updates" (
	"serial_number" text PRIMARY KEY NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "wallet_device_registrations_serial_idx" ON "wallet_device_registrations" USING btree ("serial_number");