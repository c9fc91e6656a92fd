CREATE TABLE "deployment_minutes" (
	"project_id" uuid NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "deployment_minutes_project_id_month_pk" PRIMARY KEY("project_id","month")
);
--> statement-breakpoint
ALTER TABLE "deployment_minutes" ADD CONSTRAINT "deployment_minutes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "deployment_minutes" ("project_id", "month", "ms")
SELECT "deployments"."project_id", date_trunc('month', "finished_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', round(sum(extract(epoch from ("finished_at" - "started_at")) * 1000))::bigint
FROM "deployments" JOIN "projects" ON "projects"."id" = "deployments"."project_id"
WHERE "started_at" IS NOT NULL AND "finished_at" IS NOT NULL GROUP BY 1, 2;
