CREATE TABLE "docker_registries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"provider" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"credentials" jsonb NOT NULL,
	"secrets_sealed" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "docker_registries" ADD CONSTRAINT "docker_registries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docker_registries" ADD CONSTRAINT "docker_registries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "docker_registries_project_name_key" ON "docker_registries" USING btree ("project_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "docker_registries_project_default_key" ON "docker_registries" USING btree ("project_id") WHERE "docker_registries"."is_default";