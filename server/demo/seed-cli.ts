import { getDatabase } from "#server/db/client";
import { seedDemo } from "./seed";

const database = await getDatabase();
await database.migrate();
const result = await seedDemo(database.db);
console.log(result.created ? "Datos de demo cargados." : "Los datos de demo ya estaban cargados.");
await database.close();
