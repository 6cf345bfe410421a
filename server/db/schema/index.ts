export * from "./accounts";
export * from "./organizations";
export * from "./email";
export * from "./events";
