import { createTemplate } from "./db";

export default async function setup() {
  process.env.TZ = "UTC";
  const url = process.env.DATABASE_URL;
  if (url) await createTemplate(url);
}
