import { expect, test } from "./fixtures";

/**
 * Money out and reports (decision 107): an owner requests a withdrawal of released money, the platform team
 * approves it and marks it paid, and the owner's balance and ledger show it; the owner downloads the
 * attendees as Excel and the file has the right rows.
 */
test.describe("withdrawals and exports", () => {
  test("an owner requests a withdrawal, an admin approves and pays it, the balance and ledger show it; the attendees XLSX has the right rows", async ({ browser, page, factory, signIn }) => {
    const { createEventWithReleasedSales } = await import("#tests/support/factories");
    // One paid order of 2 × $ 10.000 (10 % fee on top) of an event that ended more than 72 hours ago, and a bank account.
    const made = await createEventWithReleasedSales(2);
    // Money leaving asks for the second factor: the owner's sign-in proved it.
    await signIn(page.context(), { ...made.user, roles: ["producer"] }, { secondFactor: true });

    await page.goto("/organizacion/extracciones");
    await expect(page.getByTestId("available")).toHaveText(/\$\s?20\.000,00/);
    await page.getByRole("link", { name: "Pedir una extracción" }).click();
    await page.getByLabel("Cuenta").selectOption({ index: 1 });
    await page.getByLabel("Monto en pesos").fill("15.000");
    await page.getByRole("button", { name: "Pedir extracción" }).click();
    await expect(page).toHaveURL(/\/organizacion\/extracciones(\?|$)/);
    await expect(page.getByTestId("available")).toHaveText(/\$\s?5\.000,00/);
    await expect(page.locator("main li", { hasText: "15.000,00" })).toContainText("Pedida");

    // The platform team approves and pays it.
    const adminUser = await factory.user({ roles: ["admin"] });
    const admin = await browser.newContext();
    await signIn(admin, adminUser, { secondFactor: true });
    const queue = await admin.newPage();
    await queue.goto("/admin/extracciones");
    const item = queue.locator("li", { hasText: made.organization.name });
    await item.getByRole("button", { name: "Aprobar" }).click();
    await expect(item).toContainText("aprobada");
    await item.getByLabel("Referencia de la transferencia").fill("TRF-0042-E2E");
    await item.getByRole("button", { name: "Marcar pagada" }).click();
    await expect(queue.locator("li", { hasText: made.organization.name })).toHaveCount(0);
    await admin.close();

    // The owner sees it paid, with its reference, and the ledger entry; the balance stayed where the request left it.
    await page.reload();
    const paid = page.locator("main li", { hasText: "15.000,00" });
    await expect(paid).toContainText("Transferida");
    await expect(paid).toContainText("TRF-0042-E2E");
    await expect(page.getByTestId("available")).toHaveText(/\$\s?5\.000,00/);
    await page.goto("/organizacion/resumen-de-ventas");
    await expect(page.getByRole("list", { name: "Últimos movimientos" })).toContainText("Extracción a la cuenta");

    // The attendees as Excel: the two tickets of the order.
    await page.goto("/organizacion/informes");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Bajar Excel de Asistentes" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^asistentes-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.getWorksheet("Asistentes")!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1, 5));
    expect(rows[0]).toEqual(["Titular", "Email", "Tipo de entrada", "Compra"]);
    expect(rows.slice(1)).toEqual([
      ["Ana Gómez", "ana@example.com", "General", made.order.code],
      ["Ana Gómez", "ana@example.com", "General", made.order.code],
    ]);
  });
});
