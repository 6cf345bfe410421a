import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { DOCUMENT_TYPES, PROVINCES } from "#common/validation";
import { Field } from "#app/components/ui/Field";
import { SelectField } from "#app/components/ui/Select";

export type ProfileFieldName =
  | "firstName"
  | "lastName"
  | "email"
  | "nickname"
  | "documentType"
  | "documentNumber"
  | "address"
  | "state"
  | "phoneNumber";

// Conform's fieldset for whichever profile schema the form uses.
type Fieldset = Partial<Record<ProfileFieldName, FieldMetadata<any, any, string[]>>>;

const TEXT: Record<Exclude<ProfileFieldName, "documentType" | "state">, { label: string; type: "text" | "email" | "tel"; autoComplete: string; help?: string }> = {
  firstName: { label: "Nombre", type: "text", autoComplete: "given-name" },
  lastName: { label: "Apellido", type: "text", autoComplete: "family-name" },
  email: { label: "Email", type: "email", autoComplete: "email" },
  nickname: { label: "Apodo", type: "text", autoComplete: "nickname", help: "Si sos RRPP, con tu apodo armamos tu link de ventas. Letras sin tildes, números, puntos y guiones." },
  documentNumber: { label: "Número de documento", type: "text", autoComplete: "off", help: "Sin puntos ni espacios." },
  address: { label: "Dirección", type: "text", autoComplete: "street-address" },
  phoneNumber: { label: "Teléfono", type: "tel", autoComplete: "tel", help: "Con código de área, por ejemplo +54 9 11 5555-1234." },
};

/** The profile inputs, in the order people expect, for the names given (my account shows all; finishing Google only the missing ones). */
export function ProfileFields({ fields, names, required = false }: { fields: Fieldset; names: readonly ProfileFieldName[]; required?: boolean }) {
  return (
    <>
      {names.map((name) => {
        const meta = fields[name];
        if (!meta) return null;
        if (name === "documentType") {
          return (
            <SelectField
              key={name}
              label="Tipo de documento"
              selectProps={getSelectProps(meta)}
              options={DOCUMENT_TYPES}
              placeholder={required ? "Elegí un tipo" : "Sin elegir"}
              errors={meta.errors}
            />
          );
        }
        if (name === "state") {
          return (
            <SelectField
              key={name}
              label="Provincia"
              selectProps={{ ...getSelectProps(meta), autoComplete: "address-level1" }}
              options={PROVINCES}
              placeholder="Sin elegir"
              errors={meta.errors}
            />
          );
        }
        const text = TEXT[name];
        return (
          <Field
            key={name}
            label={text.label}
            help={text.help}
            inputProps={{ ...getInputProps(meta, { type: text.type }), autoComplete: text.autoComplete }}
            errors={meta.errors}
          />
        );
      })}
    </>
  );
}
