import { builder } from "./builder";
import "./accounts";

export const schema = builder.toSchema({ sortSchema: true });
