import crypto from "node:crypto";
import type { TestProject } from "vitest/node";
import { createTemplate, dropDatabase, templateName } from "./db";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.TZ = "UTC";
  const url = process.env.DATABASE_URL;
  const name = templateName(`${process.pid}_${crypto.randomBytes(3).toString("hex")}`);
  project.provide("templateDatabase", name);
  if (!url) return;
  await createTemplate(url, name);
  return async () => {
    await dropDatabase(url, name);
  };
}
