import { builder } from "./builder";
import "./accounts";
import "./events";
import "./orders";

export const schema = builder.toSchema({ sortSchema: true });
