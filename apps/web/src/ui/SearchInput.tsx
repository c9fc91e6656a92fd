import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A search box; lists filter case-insensitively with contracts `matchesSearch`. */
export function SearchInput({
  value,
  onChange,
  placeholder = 'Search...',
  label = 'Search',
  w = 280,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  label?: string;
  w?: number | string;
}) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={w}
    />
  );
}
