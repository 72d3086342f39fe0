#include <stdio.h>

int base_id_size(void);
int scene_node_size(void);
int particles_event_size(void);

int main(void)
{
    printf("Base_id %d\nScene_node %d\nParticles_event %d\n", base_id_size(),
           scene_node_size(), particles_event_size());
    return 0;
}
