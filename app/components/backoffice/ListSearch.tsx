import { Form } from "@remix-run/react";
import type { InputHTMLAttributes } from "react";
import { Button } from "#app/components/ui/Button";
import { useBackofficeHref } from "./Shell";

/**
 * The search box above a back-office list: a GET form to `path` that keeps
 * the global filters (organization, event, date) as hidden fields, so
 * searching never drops them. Works without JavaScript.
 */
export function ListSearch({
  path,
  label,
  name = "q",
  value,
  inputProps = {},
}: {
  path: string;
  label: string;
  name?: string;
  value: string;
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "defaultValue" | "className">;
}) {
  const href = useBackofficeHref();
  const kept = [...new URLSearchParams(href(path).split("?")[1] ?? "")].filter(([key]) => key !== name);
  return (
    <Form method="get" action={path} className="flex items-end gap-2" role="search">
      {kept.map(([key, v]) => (
        <input key={key} type="hidden" name={key} value={v} />
      ))}
      <label className="flex flex-col text-sm">
        <span>{label}</span>
        <input {...inputProps} name={name} defaultValue={value} className="mt-1 rounded-lg border border-[var(--border)] bg-[var(--surface)] px-3 py-2" />
      </label>
      <Button type="submit" variant="secondary">
        Buscar
      </Button>
    </Form>
  );
}
