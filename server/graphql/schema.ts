import { builder } from "./builder";
import "./accounts";
import "./events";

export const schema = builder.toSchema({ sortSchema: true });
