/** The menu's words both the back office and the server use (docs/menu.md). */
export type MenuCategoryName = "drink" | "food" | "combo";

export const MENU_CATEGORY_LABELS: Record<MenuCategoryName, string> = { drink: "Bebida", food: "Comida", combo: "Combo" };
