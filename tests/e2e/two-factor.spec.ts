import { Secret, TOTP } from "otpauth";
import { expect, test } from "./fixtures";

/**
 * Two-factor sign-in in the browser (decisions 100 and 133): turned on with the app's code,
 * recovery codes shown once; a new sign-in is sent to confirm before a role change and comes back; a
 * browser remembered with the box skips the code in the next sign-in, another browser does not.
 */
test.describe("verificación en dos pasos", () => {
  test("activarla, confirmar con un código de recuperación recordando el navegador, y que otro navegador la pida igual", async ({ page, browser, factory, signIn }) => {
    const producer = await factory.producer();
    const operator = await factory.user({ firstName: "Tomás", lastName: "Quiroga" });
    const [{ getDb }, { memberships }, { and, eq }] = await Promise.all([import("#server/db/client"), import("#server/db/schema"), import("drizzle-orm")]);
    const db = await getDb();
    await db.insert(memberships).values({ organizationId: producer.organization.id, userId: operator.id, role: "operator" });
    const roleOf = async () =>
      (await db.select({ role: memberships.role }).from(memberships).where(and(eq(memberships.organizationId, producer.organization.id), eq(memberships.userId, operator.id))))[0].role;
    const owner = { ...producer.user, roles: ["producer"] };

    // Turning it on: the key under the QR, a code from the app, ten recovery codes.
    await signIn(page.context(), owner);
    await page.goto("/cuenta/seguridad");
    await page.getByRole("button", { name: "Empezar" }).click();
    const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
    const now = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    await page.getByRole("textbox", { name: "Código" }).fill(now);
    await page.getByRole("button", { name: "Activar" }).click();
    await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
    const codes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();

    // Signed in again in this browser: a role change asks to confirm first, then goes back to the team page.
    await signIn(page.context(), owner);
    const changeRole = async (role: string) => {
      await page.goto("/organizacion/operadores");
      await page.getByLabel("Rol de Tomás Quiroga", { exact: true }).selectOption(role);
      await page.getByRole("button", { name: "Cambiar el rol de Tomás Quiroga" }).click();
    };
    await changeRole("staff");
    await expect(page).toHaveURL(/\/cuenta\/verificacion\?returnTo=%2Forganizacion%2Foperadores/);
    expect(await roleOf()).toBe("operator");
    await page.getByRole("textbox", { name: "Código" }).fill(codes[0]);
    await page.getByLabel(/Recordar este navegador por 30 días/).check();
    await page.getByRole("button", { name: "Confirmar" }).click();
    await expect(page).toHaveURL(/\/organizacion\/operadores$/);
    await changeRole("staff");
    await expect(page.getByText("Listo: cambiamos el rol.")).toBeVisible();
    expect(await roleOf()).toBe("staff");

    // Signed out and in again in the same browser: remembered, no code.
    await signIn(page.context(), owner);
    await changeRole("operator");
    await expect(page.getByText("Listo: cambiamos el rol.")).toBeVisible();
    expect(await roleOf()).toBe("operator");
    await page.goto("/cuenta/seguridad");
    await expect(page.getByTestId("remembered-devices")).toContainText("Este navegador está recordado");

    // Another browser, same person: asked to confirm.
    const other = await browser.newContext();
    await signIn(other, owner);
    const otherPage = await other.newPage();
    await otherPage.goto("/organizacion/operadores");
    await otherPage.getByLabel("Rol de Tomás Quiroga", { exact: true }).selectOption("staff");
    await otherPage.getByRole("button", { name: "Cambiar el rol de Tomás Quiroga" }).click();
    await expect(otherPage).toHaveURL(/\/cuenta\/verificacion/);
    expect(await roleOf()).toBe("operator");
    await other.close();

    // Forgetting the remembered browsers: the next sign-in here asks again.
    await page.getByRole("button", { name: "Olvidar los dispositivos recordados" }).click();
    await expect(page.getByText("Olvidamos el dispositivo recordado.")).toBeVisible();
    await signIn(page.context(), owner);
    await changeRole("staff");
    await expect(page).toHaveURL(/\/cuenta\/verificacion/);
    expect(await roleOf()).toBe("operator");
  });
});
