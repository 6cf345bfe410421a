import { ImageInput, TextArea, TextInput } from "./forms";

/** The organization's fields, shared by /organizacion/por-crear and /organizacion/detalle. */
export function OrganizationFields({ slugHelp }: { slugHelp: string }) {
  return (
    <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 sm:items-end">
      <TextInput name="name" label="Nombre de la organización" required maxLength={80} autoComplete="organization" />
      <TextInput name="slug" label="Link de tu página" help={slugHelp} maxLength={50} autoCapitalize="none" spellCheck={false} />
      <TextInput name="cuit" label="CUIT" help="11 números, con o sin guiones (por ejemplo 30-71234567-1)." required inputMode="numeric" />
      <TextInput name="contactEmail" label="Email de contacto" type="email" required autoComplete="email" />
      <TextInput name="contactPhone" label="Teléfono de contacto (opcional)" type="tel" autoComplete="tel" />
      <div className="sm:col-span-2">
        <TextArea name="description" label="Descripción (opcional)" help="Contá qué tipo de eventos hacen. Se ve en tu página pública." maxLength={2000} />
      </div>
      <div className="sm:col-span-2">
        <ImageInput name="logo" urlName="logoUrl" label="Logo (opcional)" alt="Logo actual de la organización" />
      </div>
    </div>
  );
}

/** With JavaScript: fills the link from the name until the person edits the link themselves. */
export function suggestSlugOnInput(suggest: (value: string) => string) {
  return (event: React.FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    const slug = event.currentTarget.elements.namedItem("slug") as HTMLInputElement | null;
    if (!slug) return;
    if (target.name === "slug") slug.dataset.touched = "true";
    else if (target.name === "name" && !slug.dataset.touched) slug.value = suggest(target.value);
  };
}
