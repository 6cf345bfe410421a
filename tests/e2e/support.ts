import { expect, type Page } from "@playwright/test";

export function uniqueEmail(prefix = "e2e") {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** Fills a form field by its name (the same name as the GraphQL argument). */
export async function fill(page: Page, name: string, value: string) {
  await page.locator(`form [name="${name}"]:visible`).first().fill(value);
}

export async function submit(page: Page, formSelector = "main form") {
  await page.locator(`${formSelector} [type="submit"]:visible`).last().click();
}

/** Opens the newest email to `email` in the dev mailbox and returns its text version. */
export async function newestEmailText(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/correos?to=${encodeURIComponent(email)}`);
  const row = page.locator("main").getByRole("link").filter({ hasText: email }).first();
  await expect(row).toBeVisible();
  await row.click();
  const text = page.locator('[data-testid="email-text"]');
  await expect(text).toBeVisible();
  return text.innerText();
}
