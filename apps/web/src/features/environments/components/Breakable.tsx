import { Fragment } from 'react';

/** A logical id or a type that may break after its separators (net/NatGateway, AWS::EC2::NatGateway): the reason keeps its room. */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=::|\/)/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
