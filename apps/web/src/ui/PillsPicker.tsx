import { CheckIcon, Combobox, Group, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { useState } from 'react';

export type PickerOption = { value: string; label: string };

/**
 * A multi-value picker that shows at most `maxPills` chosen values as pills and '+N more' for the rest (spec §2.10:
 * the report's account picker shows 4, its e-mail picker 2). With `creatable`, Enter, comma or space adds what was typed.
 */
export function PillsPicker({
  label,
  placeholder,
  options,
  value,
  onChange,
  maxPills,
  creatable,
  error,
  withAsterisk,
  description,
  'data-testid': testId,
}: {
  label: string;
  placeholder?: string;
  options: PickerOption[];
  value: string[];
  onChange: (next: string[]) => void;
  maxPills: number;
  creatable?: boolean;
  error?: string;
  withAsterisk?: boolean;
  description?: string;
  'data-testid'?: string;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const toggle = (v: string) => onChange(value.includes(v) ? value.filter((x) => x !== v) : [...value, v]);
  const add = (raw: string) => {
    const v = raw.trim();
    if (v && !value.includes(v)) onChange([...value, v]);
    setSearch('');
  };
  const q = search.trim().toLowerCase();
  const shown = options.filter((o) => !q || o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q));
  const hidden = value.length - maxPills;

  return (
    <Combobox store={combobox} onOptionSubmit={(v) => (toggle(v), setSearch(''))} withinPortal>
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          description={description}
          error={error}
          withAsterisk={withAsterisk}
          onClick={() => combobox.openDropdown()}
          data-testid={testId}
        >
          <Pill.Group>
            {value.slice(0, maxPills).map((v) => (
              <Pill key={v} withRemoveButton onRemove={() => toggle(v)}>
                {labelOf(v)}
              </Pill>
            ))}
            {hidden > 0 && (
              <Pill title={value.slice(maxPills).map(labelOf).join(', ')} data-testid="more-pills">
                +{hidden} more
              </Pill>
            )}
            <Combobox.EventsTarget>
              <PillsInput.Field
                value={search}
                placeholder={value.length ? undefined : placeholder}
                aria-label={label}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => {
                  combobox.closeDropdown();
                  if (creatable && search.trim()) add(search);
                }}
                onChange={(e) => {
                  combobox.updateSelectedOptionIndex();
                  setSearch(e.currentTarget.value);
                }}
                onKeyDown={(e) => {
                  if (creatable && (e.key === 'Enter' || e.key === ',' || e.key === ' ') && search.trim() && combobox.getSelectedOptionIndex() < 0) {
                    e.preventDefault();
                    add(search);
                  } else if (e.key === 'Backspace' && !search && value.length) {
                    e.preventDefault();
                    onChange(value.slice(0, -1));
                  }
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown>
        <Combobox.Options mah={260} style={{ overflowY: 'auto' }}>
          {shown.length === 0 ? (
            <Combobox.Empty>{creatable ? 'Type an address and press Enter' : 'Nothing found'}</Combobox.Empty>
          ) : (
            shown.map((o) => (
              <Combobox.Option value={o.value} key={o.value} active={value.includes(o.value)}>
                <Group gap="sm" wrap="nowrap">
                  {value.includes(o.value) ? <CheckIcon size={12} /> : <span style={{ width: 12 }} />}
                  <Text size="sm">{o.label}</Text>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
