import { Center, Loader } from '@mantine/core';
import { Navigate, useParams } from 'react-router';
import { useCurrentProject } from '../../../api/session';
import { usePipeline } from '../api/get-pipeline';
import { PipelineLoadError } from '../components/PipelineLoadError';

/** /pipelines/:pipelineId/builds: the latest build's page, or the builds tab when there is none. */
export default function BuildRedirectPage() {
  const { pipelineId = '' } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  const pipeline = usePipeline(projectId, pipelineId);
  if (pipeline.isError) {
    return <PipelineLoadError error={pipeline.error} />;
  }
  if (!pipeline.data) {
    return (
      <Center mih="40vh">
        <Loader />
      </Center>
    );
  }
  const latest = pipeline.data.latestBuild;
  return <Navigate to={latest ? `/pipelines/${pipelineId}/builds/${latest.id}` : `/pipelines/${pipelineId}/details?tab=builds`} replace />;
}
